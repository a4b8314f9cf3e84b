"""What the other features use of the campaigns, and nothing else: they import it from
here, never from a module of the package (``annotation/tests/test_layout.py`` checks).

* the judge's clicks (:mod:`annotation.judging`) keep the judge's batch alive, finish
  it once done and deal the next (:mod:`~annotation.campaigns.dealing`);
* an import (:mod:`annotation.corpora`) joins its corpus to the campaign the lead chose
  and queues the campaign's draw of batches, a removed corpus leaves its campaign
  (:mod:`~annotation.campaigns.membership`, :mod:`~annotation.campaigns.drawing`), and
  the lead's home lists the campaigns (:mod:`~annotation.campaigns.overview`).
"""

from annotation.campaigns.dealing import deal_next, finish_task_if_done, touch_task
from annotation.campaigns.drawing import queue_draw
from annotation.campaigns.membership import campaign_chosen, campaign_drop_if_left_empty
from annotation.campaigns.overview import campaign_groups

__all__ = [
    "campaign_chosen",
    "campaign_drop_if_left_empty",
    "campaign_groups",
    "deal_next",
    "finish_task_if_done",
    "queue_draw",
    "touch_task",
]
