"""Voice input: audio sources, recognizers, and the spoken command language."""
