"""Delivering what the bot owes: the sender, answers, notices and Telegram's time."""
