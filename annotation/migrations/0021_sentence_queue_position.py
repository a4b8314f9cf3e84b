"""Every sentence's place in the judges' queue (``Sentence.queue_position``): new imports
store a stratified order (annotation.judging.order); corpora imported before keep the
file order their campaigns started in (a judge's place, controls and "previous" all
follow the order, which must not change under a judge half-way through). Imports no
live code."""

from django.db import migrations, models
from django.db.models import F


def keep_file_order(apps, schema_editor):
    Sentence = apps.get_model("annotation", "Sentence")
    Sentence.objects.update(queue_position=F("position"))


class Migration(migrations.Migration):
    dependencies = [
        ("annotation", "0020_external_metrics"),
    ]

    operations = [
        migrations.AddField(
            model_name="sentence",
            name="queue_position",
            field=models.PositiveIntegerField(editable=False, null=True),
        ),
        migrations.RunPython(keep_file_order, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="sentence",
            constraint=models.UniqueConstraint(
                fields=("corpus", "queue_position"), name="sentence_unique_queue_position"
            ),
        ),
    ]
