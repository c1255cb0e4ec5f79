"""Layer 2, storage: all SQL (store.py). Imports bot/support and bot/domain."""
