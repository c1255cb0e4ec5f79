"""Keeping the bot up for months: the automatic backups, the notice after a long time off, the
doctor (bot/features/upkeep/feature.py declares what it adds)."""
