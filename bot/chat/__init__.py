"""Layer 6, the Telegram application: building it and registering every handler (app.py), how
updates are processed (updates.py), persistence."""
