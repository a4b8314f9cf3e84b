"""The judge's work on one candidate (seed 001 §3): click-to-accept aWER, SSER, undo/redo.

"What does a judge's click do?" is answered by :mod:`annotation.judging.changes`: one
``judgment_<action>`` service function per click, each saved at once as one event.
"""
