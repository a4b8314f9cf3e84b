"""Side-by-side corpora the tests share (three systems over six sentences of one
document, judged by ESA, MQM or aWER, assigned to the judges given; in a campaign with
no setting of its own), and the command's output."""

from __future__ import annotations

import io

from django.core.management import call_command

from annotation.models import Campaign, Corpus, SideBySide, User
from annotation.models.corpus import Protocol
from annotation.sidebyside.queue import side_by_side_set
from annotation.tests.factories import import_xml, in_file_order

SOURCES = [
    ("el gato se sentó", "the cat sat", "the cat sit", "a cat sat", "cat the sat"),
    ("un perro corrió", "a dog ran", "a dog run", "the dog ran", "dog a ran"),
    ("la casa es roja", "the house is red", "the house red", "a house is red", "house the is red"),
    ("tengo hambre", "i am hungry", "i hungry", "i am hunger", "am i hungry"),
    ("hace frío", "it is cold", "it cold", "is it cold", "it is colds"),
    ("vamos a casa", "let us go home", "we go home", "let us home", "go home"),
]
SYSTEMS = ("alpha", "beta", "gamma")
#: A second reference of a sentence: "so" and its first.
SECOND = '<eval translator="multi reference"><target>so {ref}</target></eval>'


def three_systems_xml(
    n: int = len(SOURCES), systems: int = len(SYSTEMS), *, references: int = 1
) -> str:
    """``references``: 2 gives every sentence a second reference (:data:`SECOND`)."""
    rows = []
    for source, ref, *candidates in SOURCES[:n]:
        evals = "".join(
            f'<eval translator="{name}"><target>{text}</target></eval>'
            for name, text in list(zip(SYSTEMS, candidates, strict=True))[:systems]
        )
        second = SECOND.format(ref=ref) if references > 1 else ""
        rows.append(
            f'<sentence doc="d"><source>{source}</source>'
            f'<eval translator="first reference"><target>{ref}</target></eval>'
            f"{second}{evals}</sentence>"
        )
    return "<evalTrans>" + "".join(rows) + "</evalTrans>"


def side_by_side_corpus(
    *judges: User,
    name: str = "sbs",
    protocol: str = Protocol.ESA,
    seed: int = 7,
    n: int = 6,
    systems: int = len(SYSTEMS),
    references: int = 1,
) -> Corpus:
    xml = three_systems_xml(n, systems, references=references)
    corpus = in_file_order(import_xml(xml, name, *judges))
    corpus.protocol = protocol
    corpus.save(update_fields=["protocol"])
    side_by_side_set(corpus=corpus, per_screen=2, seed=seed)
    return corpus


def corpus_in(
    campaign: Campaign, name: str, protocol: str, *judges: User, ier: bool = False
) -> Corpus:
    """A corpus of three systems judged by ``protocol`` (with IER's items if ``ier``), in
    ``campaign``, no setting."""
    corpus = import_xml(three_systems_xml(), name, *judges)
    Corpus.objects.filter(pk=corpus.pk).update(
        campaign=campaign, protocol=protocol, ier_enabled=ier
    )
    return Corpus.objects.select_related("campaign").get(pk=corpus.pk)


def settings_of(campaign: Campaign) -> dict[str, tuple[int, bool, bool]]:
    """Each corpus's stored setting: (systems a screen, preference asked, the campaign's)."""
    rows = SideBySide.objects.filter(corpus__campaign=campaign)
    return {s.corpus.name: (s.per_screen, s.asks_preference, s.from_campaign) for s in rows}


def side_by_side_command(*args: str) -> str:
    """What ``manage.py side_by_side`` prints with ``args``."""
    out = io.StringIO()
    call_command("side_by_side", *args, stdout=out)
    return out.getvalue()
