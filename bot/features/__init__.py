"""Feature packages, one folder each (docs/architecture.md). Their list, installed into the
registry, is ``installed.py``: this package imports nothing, so a layer below may import a
feature's own lower modules (its rules) without installing every feature."""
