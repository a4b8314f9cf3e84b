"""Annotators asking at once, each a process of its own on a database the test made (for
:mod:`annotation.tests.campaigns.test_dealing_race`). Run as ``python -m annotation.
tests.campaigns.racing ARGS`` with ``DATABASE_URL`` naming that database:

* ``setup ANNOTATORS [adaptive]``: the annotators ``ann0`` …, and a campaign of two
  annotators per item whose one corpus has 12 batches (24 tasks), all judged by them
  (``adaptive``: dealt adaptively, a warm-up of 25 %);
* ``deal USERNAME``: once ready (Django set up, the user and the campaign read), print
  ``ready`` and read from standard input the time to start at (seconds since the
  epoch); then ask for a task, finish it at once, ask again, until nothing is left;
  print the tasks' ids (JSON);
* ``once USERNAME``: the same, asking once; print the task's id (JSON).
"""

from __future__ import annotations

import json
import os
import sys
import time

CAMPAIGN = "race"
TASKS = 24


def setup(annotators: int, *, adaptive: bool = False) -> None:
    from annotation.campaigns.drawing import draw_campaign_tasks
    from annotation.models import User
    from annotation.tests.campaigns.split import corpus_of_documents, split_campaign

    users = [User.objects.create_user(f"ann{k}") for k in range(annotators)]
    campaign = split_campaign(
        CAMPAIGN, judges_per_item=2, batch_size=10, adaptive=adaptive, warm_up_percent=25
    )
    corpus_of_documents("c", [5] * (TASKS // 2), systems=2, campaign=campaign, judges=users)
    draw_campaign_tasks(campaign)


#: What a racing process prints once it is ready to ask.
READY = "ready"


def deal(username: str, *, once: bool) -> list[int]:
    from django.utils import timezone

    from annotation.campaigns.dealing import deal_next
    from annotation.models import Campaign, Task, User

    user = User.objects.get(username=username)
    campaign = Campaign.objects.get(name=CAMPAIGN)
    print(READY, flush=True)
    start = float(sys.stdin.readline())
    time.sleep(max(0.0, start - time.time()))
    dealt = []
    while (task := deal_next(user=user, campaign=campaign)) is not None:
        dealt.append(task.pk)
        if once:
            break
        Task.objects.filter(pk=task.pk).update(finished_at=timezone.now())
    return dealt


if __name__ == "__main__":
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "evaltool.settings")
    django.setup()
    command, *args = sys.argv[1:]
    if command == "setup":
        setup(int(args[0]), adaptive=args[1:] == ["adaptive"])
    else:
        print(json.dumps(deal(args[0], once=command == "once")))
