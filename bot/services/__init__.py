"""Layer 3, the contest day's services: each thing people do as one transaction, and what is
derived from the history (states, rankings, places, texts, files, settings). Imports storage
and below; nothing of Telegram."""
