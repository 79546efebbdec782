"""The computer opponent: which move to make, and when."""
