"""Layer 4, Telegram handlers: parse, call a service, reply; the timers (jobs.py), the menus and
the command names. Imports services and below."""
