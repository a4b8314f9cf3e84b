"""The corpus of each judgment's figures stamp, and the changed judgments looked up by
both (annotation.statistics.judgment_read): by the stamp alone, the read walked every
other corpus's judgments stamped above it."""

from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def stamped_corpora(apps, schema_editor):
    """The judgments stamped so far take their target's corpus."""
    Judgment = apps.get_model("annotation", "Judgment")
    Target = apps.get_model("annotation", "Target")
    corpus = Target.objects.filter(pk=OuterRef("target_id")).values("sentence__corpus_id")
    Judgment.objects.filter(figures_stamp__gt=0).update(figures_corpus=Subquery(corpus[:1]))


class Migration(migrations.Migration):

    dependencies = [
        ('annotation', '0039_campaign_stop_and_pairs_of_interest'),
    ]

    operations = [
        migrations.AddField(
            model_name='judgment',
            name='figures_corpus',
            field=models.PositiveBigIntegerField(default=0, editable=False),
        ),
        migrations.RunPython(stamped_corpora, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name='judgment',
            name='figures_stamp',
            field=models.PositiveBigIntegerField(default=0, editable=False),
        ),
        migrations.AddIndex(
            model_name='judgment',
            index=models.Index(fields=['figures_corpus', 'figures_stamp'], name='judgment_figures_stamp'),
        ),
    ]
