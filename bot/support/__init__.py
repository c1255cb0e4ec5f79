"""Layer 1, support with no rules in it: translations, the clock the bot reads, the event loop,
logging. Imports bot/domain at most."""
