"""Whether judges see the system's live figures (``Corpus.judges_see_figures``), set by a
lead on the campaign page, by ``manage.py figures`` and in the admin."""

from __future__ import annotations

import io
import json
from collections.abc import Callable

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from annotation.models import Corpus, User

pytestmark = pytest.mark.django_db


def figures(name: str, *args: str) -> dict:
    out = io.StringIO()
    call_command("figures", name, *args, "--json", stdout=out)
    return json.loads(out.getvalue())


def stored(corpus: Corpus) -> bool | None:
    return Corpus.objects.get(pk=corpus.pk).judges_see_figures


@pytest.mark.parametrize(
    "posted, setting", [("true", True), ("false", False), ("", None)], ids=["on", "off", "auto"]
)
def test_a_lead_sets_the_figures_on_the_campaign_page(
    lead_client: Client, seed: Corpus, posted: str, setting: bool | None
) -> None:
    page = lead_client.get(reverse("campaigns:corpus", args=[seed.pk])).content.decode()
    assert 'name="judges_see_figures"' in page
    assert "Judges see live figures" in page

    response = lead_client.post(
        reverse("campaigns:settings", args=[seed.pk]),
        {"blind": "on", "judges_see_figures": posted},
    )

    assert response.status_code == 303
    assert stored(seed) is setting


def test_the_command_turns_the_figures_on_off_and_back_to_auto(seed: Corpus) -> None:
    assert figures(seed.name) == {
        "corpus": seed.name,
        "setting": "auto",
        "blind": True,
        "shown": False,
    }
    assert figures(seed.name, "--on")["shown"] is True
    assert stored(seed) is True
    assert figures(seed.name, "--off")["setting"] == "off"
    assert stored(seed) is False
    assert figures(seed.name, "--auto") == {
        "corpus": seed.name,
        "setting": "auto",
        "blind": True,
        "shown": False,
    }
    assert stored(seed) is None


def test_the_command_says_what_judges_see(seed: Corpus) -> None:
    out = io.StringIO()
    call_command("figures", seed.name, "--on", stdout=out)
    assert out.getvalue().strip() == f"{seed.name}: live figures shown to judges (on, blind)."


def test_the_command_refuses_an_unknown_corpus_and_two_switches(seed: Corpus) -> None:
    with pytest.raises(CommandError, match="no corpus named 'nope'"):
        call_command("figures", "nope", "--on")
    with pytest.raises(CommandError):
        call_command("figures", seed.name, "--on", "--off")


def test_the_admin_sets_the_figures(
    client: Client, user_factory: Callable[..., User], seed: Corpus
) -> None:
    client.force_login(user_factory("root", is_staff=True, is_superuser=True))
    url = reverse("admin:annotation_corpus_change", args=[seed.pk])
    form = client.get(url).context["adminform"].form
    assert "judges_see_figures" in form.fields
    data = {
        name: value
        for name, value in form.initial.items()
        if value is not None
        and name not in ("judges", "leads", "extra_attrs", "extra_xml", "mqm_taxonomy")
    }
    data |= {  # the JSON fields as the admin's form writes them
        "extra_attrs": json.dumps(seed.extra_attrs),
        "extra_xml": json.dumps(seed.extra_xml),
        "mqm_taxonomy": json.dumps(seed.mqm_taxonomy),
        "judges": [u.pk for u in seed.judges.all()],
        "judges_see_figures": "true",
    }
    data = {k: ("on" if v is True else v) for k, v in data.items() if v is not False}

    response = client.post(url, data)

    assert response.status_code == 302, response.content.decode()[:2000]
    assert stored(seed) is True
    changelist = client.get(reverse("admin:annotation_corpus_changelist")).content.decode()
    assert "column-judges_see_figures" in changelist
