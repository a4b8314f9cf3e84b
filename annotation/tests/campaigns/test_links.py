"""Per-annotator links' rules (:mod:`annotation.campaigns.links`): made only for a
campaign's judges, only their hash stored, revoked and expired links open nothing,
where a link leads next, and the completion code that never changes."""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from annotation.campaigns.link_tokens import (
    CODE_ALPHABET,
    HINT_LENGTH,
    REDACTED,
    redact_link_tokens,
)
from annotation.campaigns.links import (
    ERR_INACTIVE,
    ERR_LEAD,
    ERR_NOT_IN_CAMPAIGN,
    LinkRefused,
    Next,
    Refusal,
    campaign_annotators,
    link_completion_code,
    link_for_token,
    link_next,
    link_refusal,
    link_revoke,
    links_create,
    links_revoke_all,
)
from annotation.corpora.imports import corpus_import
from annotation.models import AnnotatorLink, Campaign, Corpus, Task, User
from annotation.tests.factories import SEED_XML, done_judgment

pytestmark = pytest.mark.django_db


def two_corpus_campaign(name: str = "wmt") -> tuple[Campaign, Corpus, Corpus]:
    """A campaign of two corpora (seed 001's example twice: two candidates each)."""
    first = corpus_import(source=SEED_XML, name=f"{name}-a").corpus
    second = corpus_import(source=SEED_XML, name=f"{name}-b").corpus
    campaign = first.campaign
    own = second.campaign
    second.campaign = campaign
    second.save(update_fields=["campaign"])
    own.delete()
    campaign.name = name
    campaign.save()
    return campaign, first, second


@pytest.fixture
def campaign(user_factory: Callable[..., User]) -> Campaign:
    """Campaign "wmt" of corpora wmt-a and wmt-b; ana judges both, bo only wmt-b."""
    made, first, second = two_corpus_campaign()
    first.judges.add(user_factory("ana"))
    second.judges.add(User.objects.get(username="ana"), user_factory("bo"))
    return made


def test_a_link_is_made_per_annotator_and_only_its_hash_and_hint_are_stored(
    campaign: Campaign,
) -> None:
    ana, bo = User.objects.get(username="ana"), User.objects.get(username="bo")

    made = links_create(campaign=campaign, users=[ana, bo], days=7)

    assert [new.link.user for new in made] == [ana, bo]
    for new in made:
        stored = AnnotatorLink.objects.get(pk=new.link.pk)
        assert len(new.token) == 43
        assert stored.token_hash == hashlib.sha256(new.token.encode()).hexdigest()
        assert stored.hint == new.token[:HINT_LENGTH]
        assert new.token not in str(AnnotatorLink.objects.filter(pk=new.link.pk).values().get())
        assert timedelta(days=7) - (stored.expires_at - timezone.now()) < timedelta(minutes=1)
        assert new.path == f"/a/{new.token}/"
        assert link_for_token(new.token) == stored
    assert made[0].token != made[1].token


def test_the_annotators_of_a_campaign_are_the_active_judges_of_its_corpora(
    campaign: Campaign, user_factory: Callable[..., User]
) -> None:
    other, _, _ = two_corpus_campaign("other")
    Corpus.objects.get(name="other-a").judges.add(user_factory("cy"))
    lead = user_factory("lee", role=User.Role.LEAD)
    Corpus.objects.get(name="wmt-a").judges.add(lead)
    gone = user_factory("gone", is_active=False)
    Corpus.objects.get(name="wmt-b").judges.add(gone)

    assert [u.username for u in campaign_annotators(campaign)] == ["ana", "bo"]
    assert [u.username for u in campaign_annotators(other)] == ["cy"]


def test_no_link_for_a_lead_a_superuser_an_inactive_account_or_a_stranger(
    campaign: Campaign, user_factory: Callable[..., User]
) -> None:
    lead = user_factory("lee", role=User.Role.LEAD)
    root = user_factory("root", is_superuser=True)
    gone = user_factory("gone", is_active=False)
    stranger = user_factory("cy")
    for user in (lead, root, gone):
        Corpus.objects.get(name="wmt-a").judges.add(user)
    ana = User.objects.get(username="ana")

    with pytest.raises(LinkRefused) as refused:
        links_create(campaign=campaign, users=[ana, lead, root, gone, stranger])

    assert str(refused.value) == "; ".join(
        [
            ERR_LEAD.format(username="lee"),
            ERR_LEAD.format(username="root"),
            ERR_INACTIVE.format(username="gone"),
            ERR_NOT_IN_CAMPAIGN.format(username="cy", campaign="wmt"),
        ]
    )
    assert not AnnotatorLink.objects.exists()


def test_a_revoked_or_expired_link_or_one_whose_account_changed_opens_nothing(
    campaign: Campaign,
) -> None:
    ana, bo = User.objects.get(username="ana"), User.objects.get(username="bo")
    first, second, third = links_create(campaign=campaign, users=[ana, bo, ana])

    assert link_refusal(link_for_token(first.token)) is None
    assert link_revoke(link=first.link) is True
    assert link_revoke(link=first.link) is False
    AnnotatorLink.objects.filter(pk=second.link.pk).update(expires_at=timezone.now())
    User.objects.filter(pk=ana.pk).update(role=User.Role.LEAD)

    assert link_refusal(link_for_token(first.token)) is Refusal.REVOKED
    assert link_refusal(link_for_token(second.token)) is Refusal.EXPIRED
    assert link_refusal(link_for_token(third.token)) is Refusal.NO_ACCOUNT
    assert link_refusal(link_for_token(first.token[:-1] + "x")) is Refusal.UNKNOWN
    assert link_for_token("short") is None
    assert [r.status for r in Refusal] == [404, 410, 410, 410]


def test_revoke_all_ends_every_link_of_the_campaign_and_no_other(
    campaign: Campaign, user_factory: Callable[..., User]
) -> None:
    other, _, _ = two_corpus_campaign("other")
    Corpus.objects.get(name="other-a").judges.add(user_factory("cy"))
    kept = links_create(campaign=other, users=[User.objects.get(username="cy")])
    links_create(campaign=campaign, users=list(campaign_annotators(campaign)))

    assert links_revoke_all(campaign=campaign) == 2
    assert links_revoke_all(campaign=campaign) == 0
    assert link_refusal(link_for_token(kept[0].token)) is None


def test_an_unsplit_campaign_leads_to_the_first_corpus_with_work_left_then_the_code(
    campaign: Campaign,
) -> None:
    ana = User.objects.get(username="ana")
    (new,) = links_create(campaign=campaign, users=[ana])
    first, second = Corpus.objects.get(name="wmt-a"), Corpus.objects.get(name="wmt-b")

    assert link_next(link=new.link) == reverse("annotation:judge_continue", args=[first.pk])
    for position in (0, 1):
        done_judgment(first, ana, "a translator", position, sser=5)
    assert link_next(link=new.link) == reverse("annotation:judge_continue", args=[second.pk])
    for position in (0, 1):
        done_judgment(second, ana, "a translator", position, sser=5)
    assert link_next(link=new.link) is Next.FINISHED

    first.judges.remove(ana)
    second.judges.remove(ana)
    assert link_next(link=new.link) is Next.NOT_ASSIGNED


def test_a_split_campaign_deals_the_next_batch_and_ends_with_nothing_left(
    campaign: Campaign,
) -> None:
    campaign.judges_per_item = 1
    campaign.save()
    bo = User.objects.get(username="bo")
    second = Corpus.objects.get(name="wmt-b")
    batch = Task.objects.create(corpus=second, batch=0, start=0, end=2, order=0, size=2)
    (new,) = links_create(campaign=campaign, users=[bo])

    assert link_next(link=new.link) == reverse("annotation:judge_continue", args=[second.pk])
    batch.refresh_from_db()
    assert batch.assignee == bo

    Task.objects.filter(pk=batch.pk).update(finished_at=timezone.now())
    assert link_next(link=new.link) is Next.NOTHING_DONE
    done_judgment(second, bo, "a translator", 0, sser=3)
    assert link_next(link=new.link) is Next.FINISHED


def test_the_completion_code_is_drawn_once_and_stays(campaign: Campaign) -> None:
    ana = User.objects.get(username="ana")
    first, second = links_create(campaign=campaign, users=[ana, ana])

    code = link_completion_code(link=first.link)
    again = link_completion_code(link=AnnotatorLink.objects.get(pk=first.link.pk))
    other = link_completion_code(link=second.link)

    assert code == again == AnnotatorLink.objects.get(pk=first.link.pk).completion_code
    assert other != code
    assert len(code) == 14
    assert set(code.replace("-", "")) <= set(CODE_ALPHABET)


@pytest.mark.parametrize(
    "line, redacted",
    [
        (
            '127.0.0.1 "GET /a/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde/ HTTP/1.1" 302',
            f'127.0.0.1 "GET /a/AbCdEf{REDACTED}/ HTTP/1.1" 302',
        ),
        (
            '"http://eval.example.org/a/Zz_-9xR/" Not Found: /a/Zz_-9xRest',
            f'"http://eval.example.org/a/Zz_-9x{REDACTED}/" Not Found: /a/Zz_-9x{REDACTED}',
        ),
        ("GET /a/next/ HTTP/1.1", "GET /a/next/ HTTP/1.1"),
        ("GET /a/ended/?unsaved=1", "GET /a/ended/?unsaved=1"),
        ("GET /campaigns/links/3/ HTTP/1.1", "GET /campaigns/links/3/ HTTP/1.1"),
    ],
)
def test_a_token_is_cut_to_its_hint_wherever_a_line_names_its_path(
    line: str, redacted: str
) -> None:
    assert redact_link_tokens(line) == redacted


def test_manage_annotator_links_prints_each_link_once_as_csv(campaign: Campaign) -> None:
    out = io.StringIO()

    call_command(
        "annotator_links",
        "wmt",
        "--all",
        "--base-url",
        "https://eval.example.org/",
        stdout=out,
        stderr=io.StringIO(),
    )

    rows = [line.split(",") for line in out.getvalue().splitlines()]
    assert rows[0] == ["username", "email", "link", "expires_utc"]
    assert [r[0] for r in rows[1:]] == ["ana", "bo"]
    for row in rows[1:]:
        token = row[2].removeprefix("https://eval.example.org/a/").rstrip("/")
        link = link_for_token(token)
        assert link is not None
        assert link.user.username == row[0]


def test_manage_annotator_links_refuses_a_lead_and_makes_nothing(
    campaign: Campaign, user_factory: Callable[..., User]
) -> None:
    user_factory("lee", role=User.Role.LEAD)

    with pytest.raises(CommandError) as refused:
        call_command("annotator_links", "wmt", "--user", "lee", "--base-url", "http://x")

    assert ERR_LEAD.format(username="lee") in str(refused.value)
    assert not AnnotatorLink.objects.exists()
