"""Taking a corpus away: archive (hidden from judges, kept for leads, restorable), delete
for good (its name typed, or ``--yes``), a hidden corpus left by an unfinished import
included; an import assigns its evaluators only when asked."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from annotation.corpora.import_state import ImportRefused
from annotation.corpora.imports import ERR_CORPUS_IMPORTING, corpus_import
from annotation.corpora.removal import ERR_NAME_MISMATCH, corpus_delete
from annotation.jobs import Job, run_queued_jobs
from annotation.judging.start import judgment_open, judgment_seen
from annotation.models import (
    Corpus,
    CorpusStatistics,
    Judgment,
    JudgmentEvent,
    Sentence,
    Target,
    Translator,
    User,
)
from annotation.tests.factories import DEMO_XML, JUDGED, done_judgment, page_url, target_of
from annotation.tests.stored import automatic_statistics

pytestmark = pytest.mark.django_db


def remove_url(corpus: Corpus) -> str:
    return reverse("annotation:corpus_remove", args=[corpus.pk])


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def unfinished(name: str) -> Corpus:
    """A hidden corpus as an import killed half-way leaves it: a sentence, no sizes."""
    corpus = Corpus.all_objects.create(name=name, ready=False)
    Sentence.objects.create(corpus=corpus, position=0, source="s")
    return corpus


def test_deleting_a_corpus_takes_every_row_it_holds_and_keeps_the_accounts(
    seed: Corpus, judge: User
) -> None:
    automatic_statistics(seed)  # stored, as once its import's job is done
    judgment = judgment_open(user=judge, target=target_of(seed, "a translator"))
    judgment_seen(judgment=judgment, user=judge)
    assert JudgmentEvent.objects.exists()
    assert CorpusStatistics.objects.exists()

    corpus_delete(corpus=seed)

    assert not Corpus.all_objects.filter(pk=seed.pk).exists()
    for model in (Sentence, Target, Translator, Judgment, JudgmentEvent, CorpusStatistics):
        assert not model.objects.exists(), model.__name__
    assert User.objects.filter(pk=judge.pk).exists()


def test_a_large_corpus_is_deleted_in_batches_of_sentences() -> None:
    corpus = corpus_import(source=DEMO_XML, name="demo").corpus  # 40 sentences

    corpus_delete(corpus=corpus)

    assert not Sentence.objects.exists()
    assert not Corpus.all_objects.exists()


def test_a_deletion_hides_the_corpus_at_once_and_a_worker_deletes_its_rows(
    lead_client: Client, settings: Any
) -> None:
    corpus = corpus_import(source=DEMO_XML, name="demo").corpus
    settings.TASKS = settings.QUEUED_TASKS  # the job waits for a worker

    done = lead_client.post(remove_url(corpus), {"action": "delete", "name": "demo"})

    assert done.status_code == 303
    assert not Corpus.objects.filter(pk=corpus.pk).exists()  # hidden from every page
    assert Sentence.objects.count() == 40  # its rows wait for the worker
    (job,) = Job.objects.filter(kind="delete_corpus")
    assert (job.status, job.label) == ("queued", "Deleting demo")
    assert run_queued_jobs() == 1
    job.refresh_from_db()
    assert (job.status, job.done, job.total, job.phase) == ("done", 40, 40, "deleting sentences")
    assert not Sentence.objects.exists()
    assert not Corpus.all_objects.exists()


def test_the_page_deletes_only_with_the_name_typed(lead_client: Client, seed: Corpus) -> None:
    refused = lead_client.post(remove_url(seed), {"action": "delete", "name": "sed"})

    assert refused.status_code == 400
    assert ERR_NAME_MISMATCH.format(name="seed") in refused.content.decode().replace("&#x27;", "'")
    assert Corpus.objects.filter(pk=seed.pk).exists()

    done = lead_client.post(remove_url(seed), {"action": "delete", "name": "seed"})

    assert done.status_code == 303
    assert done["Location"] == reverse("annotation:home")
    assert not Corpus.all_objects.filter(pk=seed.pk).exists()


def test_the_page_says_what_a_deletion_takes_with_it(
    lead_client: Client, seed: Corpus, judge: User
) -> None:
    done_judgment(seed, judge, "a translator", 0, sser=7, new_ref="x", edits=1, length=1)

    html = lead_client.get(remove_url(seed)).content.decode()

    assert 'data-sentences="2"' in html
    assert 'data-judgments="1"' in html


def test_an_archived_corpus_is_hidden_from_its_judges_and_kept_for_leads(
    lead_client: Client, seed: Corpus, judge: User
) -> None:
    judgment = judgment_open(user=judge, target=target_of(seed, "a translator"))
    client = Client()
    client.force_login(judge)
    assert client.get(page_url(judgment)).status_code == 200

    assert lead_client.post(remove_url(seed), {"action": "archive"}).status_code == 303

    assert Corpus.objects.get(pk=seed.pk).archived
    assert "seed" not in client.get(reverse("annotation:home")).content.decode()
    assert client.get(page_url(judgment)).status_code == 404
    assert client.get(reverse("annotation:judge_continue", args=[seed.pk])).status_code == 404
    home = lead_client.get(reverse("annotation:home")).content.decode()
    assert 'data-archived="true"' in home
    assert lead_client.get(reverse("dashboard:page", args=[seed.pk])).status_code == 200
    assert lead_client.get(reverse("annotation:corpus_download", args=[seed.pk])).status_code == 200

    assert lead_client.post(remove_url(seed), {"action": "restore"}).status_code == 303

    assert not Corpus.objects.get(pk=seed.pk).archived
    assert client.get(page_url(judgment)).status_code == 200


def test_an_unfinished_import_is_listed_for_leads_and_can_only_be_deleted(
    lead_client: Client,
) -> None:
    stuck = unfinished("stuck")

    home = lead_client.get(reverse("annotation:home")).content.decode()
    assert 'data-unfinished="stuck"' in home
    assert lead_client.post(remove_url(stuck), {"action": "archive"}).status_code == 400

    lead_client.post(remove_url(stuck), {"action": "delete", "name": "stuck"})

    assert not Corpus.all_objects.exists()
    assert not Sentence.objects.exists()


def test_a_corpus_being_deleted_is_not_listed_as_an_unfinished_import(
    lead_client: Client, settings: Any
) -> None:
    """Issue 36, point 8a: the corpus a deletion hid waits for a worker, and meanwhile the
    lead's home lists it nowhere (not as an unfinished import with a Delete link); an
    unfinished import whose deletion is not asked stays listed, and so does a corpus
    whose deletion failed (its workers killed), to be deleted again."""
    corpus = corpus_import(source=DEMO_XML, name="demo").corpus
    unfinished("stuck")
    settings.TASKS = settings.QUEUED_TASKS  # the deletion waits for a worker

    lead_client.post(remove_url(corpus), {"action": "delete", "name": "demo"})

    home = lead_client.get(reverse("annotation:home")).content.decode()
    assert Corpus.all_objects.filter(pk=corpus.pk).exists()  # its rows wait for the worker
    assert 'data-unfinished="demo"' not in home
    assert 'data-unfinished="stuck"' in home
    Job.objects.filter(kind="delete_corpus").update(status=Job.Status.FAILED, error="stopped")
    home = lead_client.get(reverse("annotation:home")).content.decode()
    assert 'data-unfinished="demo"' in home


def test_an_unfinished_imports_name_is_free_again_once_it_is_deleted() -> None:
    unfinished("judged")
    with pytest.raises(ImportRefused) as refused:
        corpus_import(source=io.BytesIO(JUDGED), name="judged")
    assert "delete_corpus" in str(refused.value)
    assert str(refused.value).endswith(ERR_CORPUS_IMPORTING.format(name="judged", rename="--name"))

    run("delete_corpus", "judged", "--yes")

    assert corpus_import(source=io.BytesIO(JUDGED), name="judged").corpus.ready


def test_removal_pages_are_a_404_for_judges_and_the_login_for_anonymous_visitors(
    client: Client, judge_client: Client, seed: Corpus
) -> None:
    assert judge_client.get(remove_url(seed)).status_code == 404
    delete = {"action": "delete", "name": "seed"}
    assert judge_client.post(remove_url(seed), delete).status_code == 404
    anonymous = Client().get(remove_url(seed))
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith("/accounts/login/")
    assert Corpus.objects.filter(pk=seed.pk).exists()


def test_delete_corpus_without_yes_only_says_what_it_would_delete(seed: Corpus) -> None:
    with pytest.raises(CommandError, match="add --yes"):
        run("delete_corpus", "seed")
    assert Corpus.objects.filter(pk=seed.pk).exists()

    out = run("delete_corpus", "seed", "--yes")

    assert out == "Deleted. Corpus 'seed': 2 sentences, 0 judgments by 0 evaluators.\n"
    assert not Corpus.all_objects.exists()


def test_delete_corpus_refuses_an_unknown_name() -> None:
    with pytest.raises(CommandError, match="no corpus named 'nope'"):
        run("delete_corpus", "nope", "--yes")


def test_archive_corpus_archives_and_restores(seed: Corpus, judge: User) -> None:
    assert run("archive_corpus", "seed") == "seed: archived.\n"
    assert not Corpus.objects.visible_to(judge).exists()

    run("archive_corpus", "seed", "--restore")

    assert list(Corpus.objects.visible_to(judge)) == [seed]


def test_import_evaltrans_assigns_the_files_evaluators_only_with_assign(tmp_path: Path) -> None:
    path = tmp_path / "judged.xml"
    path.write_bytes(JUDGED)

    out = run("import_evaltrans", str(path), "--name", "plain")
    assert "not assigned as judges" in out
    assert not Corpus.objects.get(name="plain").judges.exists()

    run("import_evaltrans", str(path), "--name", "assigned", "--assign")
    assigned = Corpus.objects.get(name="assigned").judges.values_list("username", flat=True)
    assert set(assigned) == {"JM", "AB"}


def test_the_upload_form_assigns_the_files_evaluators_only_when_ticked(
    lead_client: Client,
) -> None:
    upload = reverse("annotation:corpus_upload")
    lead_client.post(upload, {"file": io.BytesIO(JUDGED), "name": "plain"})
    lead_client.post(upload, {"file": io.BytesIO(JUDGED), "name": "ticked", "assign": "on"})

    assert not Corpus.objects.get(name="plain").judges.exists()
    assert Corpus.objects.get(name="ticked").judges.count() == 2
