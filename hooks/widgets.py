"""Calculator widgets (placeholder until the widget work lands): markers stay HTML comments."""
