"""What each recipient reads, per feature: pure functions from an outcome to text."""
