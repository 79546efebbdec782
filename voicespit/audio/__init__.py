"""Audio output: speech, earcons and the sound device."""
