"""HTER counts on every judgment with a new reference: the candidate's TER with shifts
against its new reference, stored beside the aWER counts so no page searches shifts.

A migration imports no live code (the code changes, the migration must not): the counts
of judgments stored before this migration are filled by ``manage.py backfill_hter``, which
uses the app's one rule for them (``annotation.text.new_ref_counts``)."""

from django.db import migrations, models


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
    ]
