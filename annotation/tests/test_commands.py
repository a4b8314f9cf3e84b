"""The command line a lead scripts against: import, export, scores, accounts, demo."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
import sacrebleu
from django.core.management import CommandError, call_command

from annotation.corpora.imports import corpus_import
from annotation.jobs import Job
from annotation.models import Campaign, Corpus, Task, User
from annotation.tests.controls.factories import queue_corpus, walk_queue
from annotation.tests.factories import (
    AUTOMATIC,
    CHINESE,
    CHINESE_REFS,
    CHINESE_SYSTEMS,
    DEMO_XML,
    SEED_XML,
    manage_py,
)

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    from io import StringIO

    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_import_evaltrans_prints_a_summary() -> None:
    out = run("import_evaltrans", str(DEMO_XML), "--name", "demo")

    assert out.splitlines()[0] == (
        "Imported corpus 'demo': 40 sentences, 2 references per sentence, 5 systems, 0 judgments."
    )


def test_import_evaltrans_puts_each_language_pair_in_the_campaign_named() -> None:
    """A lead scripts a campaign's language pairs, one command each: the first makes the
    campaign, the next join it; a split campaign's new corpus gets its batches drawn."""
    run("import_evaltrans", str(DEMO_XML), "--name", "zh-en", "--campaign", "WMT 26")
    Campaign.objects.filter(name="WMT 26").update(judges_per_item=1)
    run("import_evaltrans", str(SEED_XML), "--name", "es-en", "--campaign", "WMT 26")

    campaign = Campaign.objects.get(name="WMT 26")
    assert sorted(campaign.corpora.values_list("name", flat=True)) == ["es-en", "zh-en"]
    assert Task.objects.filter(corpus__name="es-en").exists()  # drawn (the queue runs here)
    assert not campaign.made_for_corpus
    with pytest.raises(CommandError, match="cannot be empty"):
        run("import_evaltrans", str(SEED_XML), "--name", "x", "--campaign", " ")


def test_import_evaltrans_queues_the_scoring_and_waits_for_it_only_when_asked(
    settings: Any,
) -> None:
    settings.TASKS = settings.QUEUED_TASKS  # no worker runs here
    queued = run("import_evaltrans", str(DEMO_XML), "--name", "demo")
    (job,) = Job.objects.all()
    assert queued.splitlines()[-1] == (
        f"Scoring queued as job {job.pk} (manage.py jobs --wait {job.pk} shows its progress)."
    )
    assert job.status == "queued"

    waited = run("import_evaltrans", str(DEMO_XML), "--name", "demo 2", "--wait")
    assert waited.splitlines()[-1] == "Scoring demo 2: done"  # computed here: no worker
    assert Job.objects.get(corpus__name="demo 2").status == "done"


def test_import_evaltrans_refusal_is_one_line_and_a_non_zero_exit(
    tmp_path: Path, migrated_sqlite: Path
) -> None:
    bad = tmp_path / "corpus.xml"
    bad.write_text(
        "<evalTrans>\n<sentence>\n<source>x</source>\n"
        "<eval><target>y</target></eval>\n</sentence>\n</evalTrans>\n",
        encoding="utf-8",
    )

    proc = manage_py(migrated_sqlite, "import_evaltrans", str(bad))

    assert proc.returncode != 0
    assert proc.stderr.strip() == f"CommandError: {bad} line 4: <eval> without translator"
    assert "Traceback" not in proc.stderr


def test_export_evaltrans_writes_a_file_and_refuses_an_unknown_corpus(tmp_path: Path) -> None:
    run("import_evaltrans", str(SEED_XML), "--name", "seed")
    target = tmp_path / "out.xml"

    run("export_evaltrans", "seed", "-o", str(target))

    assert target.read_bytes().count(b"<sentence") == 2
    with pytest.raises(CommandError, match="no corpus named 'nope'"):
        run("export_evaltrans", "nope")


def test_export_evaltrans_writes_to_stdout_by_default(
    capfdbinary: pytest.CaptureFixture[bytes],
) -> None:
    run("import_evaltrans", str(SEED_XML), "--name", "seed")

    call_command("export_evaltrans", "seed")

    out = capfdbinary.readouterr().out
    assert out.startswith(b'<?xml version="1.0" encoding="UTF-8"?>')
    assert b"Diagram show the scan procedure for locate the archives ." in out


def test_scores_json_has_every_metric_for_systems_only() -> None:
    run("import_evaltrans", str(DEMO_XML), "--name", "demo")

    payload = json.loads(run("scores", "demo", "--json"))

    assert payload["corpus"] == "demo"
    assert set(payload["translators"]) == {
        "DIDI-NLP",
        "Facebook-AI",
        "IIE-MT",
        "NiuTrans",
        "Online-W",
    }
    for figures in payload["translators"].values():
        assert set(figures) == {*AUTOMATIC}
        for figure in figures.values():
            assert isinstance(figure["score"], float)
            assert "version:" in figure["signature"]
        assert 0 < figures["bleu"]["score"] < 100
        assert figures["mwer"]["score"] <= figures["wer"]["score"]


def test_scores_include_human_figures_where_judgments_exist(tmp_path: Path) -> None:
    judged = tmp_path / "judged.xml"
    judged.write_bytes(
        SEED_XML.read_bytes().replace(
            b'<eval translator="a translator">\n    <target>Chart',
            b'<eval translator="a translator" evaluator="JM" sser="8">\n    '
            b"<newRef>Chart represents the method.</newRef>\n    <target>Chart",
        )
    )
    run("import_evaltrans", str(judged), "--name", "judged")

    figures = json.loads(run("scores", "judged", "--json"))["translators"]["a translator"]

    assert figures["sser"]["score"] == pytest.approx(20.0)
    assert figures["awer"]["score"] == pytest.approx(100 * 1 / 5)
    assert figures["aser"]["score"] == pytest.approx(100.0)


def test_scores_table_lists_systems() -> None:
    run("import_evaltrans", str(DEMO_XML), "--name", "demo")

    lines = run("scores", "demo").splitlines()

    assert lines[0].split() == [
        "system",
        *("WER", "SER", "MWER", "PER", "PER2", "TER", "BLEU", "NIST", "CHRF", "CHRF++"),
        *("WNGRAM-P", "WNGRAM-R", "WNGRAM-F", "METEOR", "LEPOR"),
    ]
    assert len(lines) == 6


@pytest.mark.parametrize("scored", [True, False], ids=["by-the-import", "by-the-command"])
def test_scores_of_a_chinese_target_are_tokenized_as_its_language(
    tmp_path: Path, scored: bool
) -> None:
    """The figures are those of the corpus's default choice, the dashboard's: a Chinese
    target's are scored with sacreBLEU's ``zh`` tokenizer (a character a word), whether
    the import scored them or the command does."""
    corpus_import(source=io.BytesIO(CHINESE.encode()), name="zh", score=scored)

    figures = json.loads(run("scores", "zh", "--json"))["translators"]

    for system, hyps in CHINESE_SYSTEMS.items():
        bleu = sacrebleu.corpus_bleu(hyps, [CHINESE_REFS], tokenize="zh")
        assert "|tok:zh|" in figures[system]["bleu"]["signature"]
        assert figures[system]["bleu"]["score"] == pytest.approx(bleu.score)
    assert figures["sys B"]["wer"]["score"] == pytest.approx(100 * 2 / (5 + 7 + 5))  # 13a: 2/3


def test_add_user_creates_and_updates_accounts_and_assigns_corpora() -> None:
    run("import_evaltrans", str(SEED_XML), "--name", "seed")

    assert run(
        "add_user", "ana", "--password", "pw-ana-1234", "--role", "judge", "--corpus", "seed"
    ) == ("Created judge 'ana', corpora: seed.\n")
    ana = User.objects.get(username="ana")
    assert ana.check_password("pw-ana-1234")
    assert list(ana.assigned_corpora.values_list("name", flat=True)) == ["seed"]

    assert run("add_user", "ana", "--password", "other-pw-5678", "--role", "lead").startswith(
        "Updated lead"
    )
    ana.refresh_from_db()
    assert ana.is_lead
    assert ana.check_password("other-pw-5678")
    with pytest.raises(CommandError, match="no corpus named 'nope'"):
        run("add_user", "bo", "--password", "x", "--role", "judge", "--corpus", "nope")


def test_add_user_activates_an_evaluator_imported_from_a_file(tmp_path: Path) -> None:
    User.objects.create(username="JM", is_active=False)

    run("add_user", "JM", "--password", "pw-jm-1234", "--role", "judge")

    assert User.objects.get(username="JM").is_active


def test_import_text_reads_plain_files(tmp_path: Path) -> None:
    for name, text in {"src": "uno\n", "ref": "one\n", "sys": "one\n"}.items():
        (tmp_path / f"{name}.txt").write_text(text, encoding="utf-8")

    out = run(
        "import_text",
        "--name",
        "plain",
        "--source",
        str(tmp_path / "src.txt"),
        "--ref",
        str(tmp_path / "ref.txt"),
        "--hyp",
        f"mt={tmp_path / 'sys.txt'}",
    )

    assert out.startswith("Imported corpus 'plain': 1 sentence, 1 reference per sentence, 1 system")
    with pytest.raises(CommandError, match="is not SYSTEM=FILE"):
        run("import_text", "--name", "x", "--source", "a", "--ref", "b", "--hyp", "nofile")


def test_demo_setup_is_idempotent_and_prints_the_logins() -> None:
    first = run("demo_setup")
    second = run("demo_setup")

    assert Corpus.objects.count() == 2
    assert "demo-lead" in second
    assert "demo-judge" in second
    assert "http://127.0.0.1:8000/" in second
    assert "Imported corpus" in first
    assert "Imported corpus" not in second
    judge = User.objects.get(username="demo-judge")
    assert judge.assigned_corpora.count() == 2
    assert judge.is_active


def test_the_progress_bar_shows_the_share_read_and_the_sentences(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import io

    from annotation.management.commands.import_evaltrans import _progress_bar

    stream = io.BytesIO(b"x" * 200)
    stream.read(50)

    _progress_bar(stream, 200)(500)

    assert capsys.readouterr().out == "\r[#######.......................]  25%  500 sentences"


def test_add_user_refuses_a_username_longer_than_its_column() -> None:
    with pytest.raises(CommandError, match="the username is 151 characters long; at most 150"):
        run("add_user", "u" * 151, "--password", "pw", "--role", "judge")
    assert not User.objects.exists()


def test_controls_turns_control_items_on_and_prints_each_judges_pass_rate(
    tmp_path: Path, user_factory
) -> None:
    judge = user_factory("ann")
    corpus = queue_corpus(tmp_path, "ctl", [judge], sentences=10, rate=3)
    corpus.controls_enabled = False
    corpus.save()

    out = run("controls", "ctl", "--on", "--rate", "4", "--threshold", "90")
    walk_queue(Corpus.objects.get(pk=corpus.pk), judge)
    payload = json.loads(run("controls", "ctl", "--json"))

    assert out.strip() == (
        "ctl: control items on, one in every 4 items (1 in every sentence's run of 4 items, "
        "one in every 4.0 items); judges below 90 % are flagged."
    )
    assert (payload["enabled"], payload["rate"], payload["per_run"]) == (True, 4, 1)
    assert payload["threshold"] == 90
    ann = payload["judges"]["ann"]
    assert ann["done"] > 0
    assert ann["passed"] == ann["done"]
    assert ann["pass_rate"] == 100.0
    assert ann["flagged"] is False
    assert ann["bad_references"] > 0
    assert ann["bad_references_passed"] == ann["bad_references"]
    lines = run("controls", "ctl", "--off").splitlines()
    assert lines[0].startswith("ctl: control items off;")
    assert lines[1].startswith(f"ann: {ann['done']}/{ann['done']} passed (100.0 %)")
    bad = ann["bad_references"]
    assert lines[1].endswith(f"bad references {bad}/{bad} passed")


@pytest.mark.parametrize(
    "args, message",
    [
        (("--rate", "2"), "--rate: Ensure this value is greater than or equal to 3."),
        (("--threshold", "150"), "--threshold: Ensure this value is less than or equal to 100."),
        (("--rate", "x"), "--rate: Enter a whole number."),
        (("--rate", "١٢"), "--rate: '١٢' is not a whole number written in the digits 0-9"),
    ],
)
def test_controls_refuses_a_bad_value_naming_the_option(
    args: tuple[str, ...], message: str
) -> None:
    corpus_import(source=SEED_XML, name="seed")

    with pytest.raises(CommandError) as refused:
        run("controls", "seed", *args)

    assert str(refused.value) == message
    assert Corpus.objects.get(name="seed").control_rate == 10


def test_controls_of_an_unknown_corpus_is_refused() -> None:
    with pytest.raises(CommandError, match="no corpus named 'nope'"):
        run("controls", "nope")


def test_deactivate_user_deactivates_and_reactivates_an_account(judge: User) -> None:
    assert run("deactivate_user", "judge") == "judge: deactivated.\n"
    assert not User.objects.get(pk=judge.pk).is_active

    assert run("deactivate_user", "judge", "--reactivate") == "judge: reactivated.\n"
    assert User.objects.get(pk=judge.pk).is_active
    with pytest.raises(CommandError, match="no account named 'nobody'"):
        run("deactivate_user", "nobody")


def test_leave_out_leaves_a_judge_out_of_a_corpuss_figures_and_back(
    seed: Corpus, judge: User
) -> None:
    assert run("leave_out", "seed", "judge") == "seed: judge left out of every figure.\n"
    assert list(seed.excluded_judges.all()) == [judge]

    run("leave_out", "seed", "judge", "--count-again")

    assert not seed.excluded_judges.exists()
    with pytest.raises(CommandError, match="no account named 'nobody'"):
        run("leave_out", "seed", "nobody")
