"""Layer 7, the rehearsal and what it needs: our fake Bot API and the real bot run against it."""
