"""HTER counts on every judgment with a new reference: the candidate's TER with shifts
against its new reference, stored beside the aWER counts so no page searches shifts."""

from django.db import migrations, models

from metrics.human import hter_row
from metrics.tokenize import Preprocessor

#: aWER's words (annotation.text), as this migration keeps them: HTER reads the
#: candidate's 13a words against the new reference's.
AWER_PREPROCESSOR = Preprocessor(tokenize="13a")

BATCH = 500


def count_hter(apps, schema_editor):
    """Fill ``ter_edits`` / ``ter_length`` of the judgments stored before they existed
    (those with aWER counts: they have a new reference), a batch at a time."""
    Judgment = apps.get_model("annotation", "Judgment")
    todo = Judgment.objects.filter(edits__isnull=False, ter_edits__isnull=True)
    pks = list(todo.order_by("pk").values_list("pk", flat=True))
    for start in range(0, len(pks), BATCH):
        rows = Judgment.objects.filter(pk__in=pks[start : start + BATCH])
        batch = []
        for pk, candidate, new_ref in rows.values_list("pk", "target__text", "new_ref"):
            words = " ".join(AWER_PREPROCESSOR.tokens_uncached(candidate))
            edits, length = hter_row.__wrapped__(words, new_ref)
            batch.append(Judgment(pk=pk, ter_edits=int(edits), ter_length=int(length)))
        Judgment.objects.bulk_update(batch, ["ter_edits", "ter_length"])


class Migration(migrations.Migration):

    dependencies = [
        ('annotation', '0007_campaigns'),
    ]

    operations = [
        migrations.AddField(
            model_name='judgment',
            name='ter_edits',
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='judgment',
            name='ter_length',
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddConstraint(
            model_name='judgment',
            constraint=models.CheckConstraint(condition=models.Q(('ter_edits__isnull', True), ('ter_length__isnull', False), _connector='OR'), name='judgment_ter_edits_with_length'),
        ),
        migrations.RunPython(count_hter, migrations.RunPython.noop),
    ]
