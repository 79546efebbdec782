"""The spoken command language, pure text: no audio, no recognizer, no clock.

`commands` holds the value types (`Command`, `Verb`, `Group`); `grammar` is the one
definition of every phrasing, from which come the recognizers' vocabulary
(`word_graph` turns it into a graph of sentences), the parser (`parser`: words to
a command, a command to a legal move), the spoken help (`help`) and the test
phrases; `context` narrows what is likely to the state of the game.

May import: `engine` and the cross-cutting modules.
"""
