"""A job's row is its one record: the id of the task that last carried it to the workers
(the database task backend's row, a doorbell) goes with that backend. A job queued or
running when this is applied is taken from its own row by the next worker that looks."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("annotation", "0025_campaign_made_for_corpus"),
    ]

    operations = [
        migrations.RemoveField(
            model_name="job",
            name="task_id",
        ),
    ]
