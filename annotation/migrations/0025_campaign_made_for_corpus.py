"""A campaign made for one corpus (``made_for_corpus``) goes with that corpus once left
empty. Every campaign so far was made so (migration 0023 gave each corpus its own, and
``Corpus.save`` makes one for a corpus saved without), so each is marked."""

from django.db import migrations, models
from django.db.models import Count


def mark_campaigns_made_for_a_corpus(apps, schema_editor):
    Campaign = apps.get_model("annotation", "Campaign")
    single = Campaign.objects.annotate(n=Count("corpora")).filter(n__lte=1).values("pk")
    Campaign.objects.filter(pk__in=single).update(made_for_corpus=True)


class Migration(migrations.Migration):
    dependencies = [
        ("annotation", "0024_corpus_campaign_required"),
    ]

    operations = [
        migrations.AddField(
            model_name="campaign",
            name="made_for_corpus",
            field=models.BooleanField(
                default=False,
                editable=False,
                help_text="Made for one corpus: goes with it when left empty.",
            ),
        ),
        migrations.RunPython(mark_campaigns_made_for_a_corpus, migrations.RunPython.noop),
    ]
