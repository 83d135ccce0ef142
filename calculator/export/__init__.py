"""The framework exporters: an estimate's setup written as the configs real training frameworks accept, and theirs
read back (the boundary side, beside ``calculator.page``; standard library only). Empty for now: each exporter is
one module here."""
