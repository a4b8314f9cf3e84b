"""The resampling every figure is tested on (``paired_bootstrap``): drawn once per process
and size, the same as drawn afresh, and read-only, so no figure can change it for the
next view."""

from __future__ import annotations

import numpy as np
import pytest
from django.test import override_settings

from annotation.statistics import paired_bootstrap
from metrics.significance import DEFAULT_SEED, Bootstrap


def test_the_resampling_kept_is_the_one_drawn_afresh_and_no_figure_can_change_it() -> None:
    kept = paired_bootstrap(30)
    fresh = Bootstrap(30, kept.n_samples, DEFAULT_SEED)
    assert np.array_equal(kept.indices, fresh.indices)
    assert np.array_equal(kept.counts, fresh.counts)
    with pytest.raises(ValueError, match="read-only"):
        kept.counts[0, 0] += 1
    with pytest.raises(ValueError, match="read-only"):
        kept.indices[0, 0] = 0
    assert np.array_equal(paired_bootstrap(30).counts, fresh.counts)


@override_settings(EVALTOOL_BOOTSTRAP_SAMPLES=40)
def test_the_resampling_follows_the_configured_number_of_samples() -> None:
    drawn = paired_bootstrap(30)
    assert (drawn.n_samples, drawn.counts.shape) == (40, (40, 30))
