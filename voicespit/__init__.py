"""VoiceSpit: Spit and Speed by voice, for the ears alone."""

__version__ = "0.1.0"
