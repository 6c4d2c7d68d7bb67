"""The rules assistant: an index of rule sections and cited answers; data plus look-up, no game logic.

``ask(question, top, context)`` returns a Reply that leads with the fact answering the question, then the
best matching Living Rules sections (number, title, the project's own summary, score, related sections);
``answer(...)`` returns just the sections. The terminal game calls it for ``rules <question>`` at any prompt.
Heavy imports (bm25s, numpy, rapidfuzz, the embedding model) happen only when a question is first asked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from grandstrategy.rulebook.assistant import Answer, Reply, RulesAssistant, answer, ask

__all__ = ["Answer", "Reply", "RulesAssistant", "answer", "ask"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from grandstrategy.rulebook import assistant

        return getattr(assistant, name)
    raise AttributeError(name)
