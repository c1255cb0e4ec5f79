"""The feature packages (docs/architecture.md), one per feature; ``installed.py`` lists them and
installs them into the registry. This file imports nothing: a feature's ``rules.py`` is read by
the layers below (the escape's ledger is in every entry's state), and importing it must not
bring in every feature's handlers."""
