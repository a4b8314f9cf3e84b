"""Times on the campaign pages say their zone: UTC, in words and in a machine-readable
``<time datetime>``, whatever zone the viewer is in."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.test import Client
from django.urls import reverse
from lxml import etree

from annotation.models import User

pytestmark = pytest.mark.django_db


def test_the_last_login_of_a_judge_is_shown_in_utc_and_says_so(
    lead_client: Client, judge: User, settings: object
) -> None:
    settings.TIME_ZONE = "America/New_York"  # type: ignore[attr-defined]
    User.objects.filter(pk=judge.pk).update(last_login=datetime(2026, 3, 1, 2, 5, tzinfo=UTC))

    html = lead_client.get(reverse("campaigns:judges")).content.decode()

    tree = etree.HTML(html)
    assert "Last login (UTC)" in html
    cell = tree.find(f'.//tr[@data-judge="{judge.username}"]/td[@data-col="last-login"]/time')
    assert cell.text == "2026-03-01 02:05 UTC"
    assert datetime.fromisoformat(cell.get("datetime")) == datetime(2026, 3, 1, 2, 5, tzinfo=UTC)
