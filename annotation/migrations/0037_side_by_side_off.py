from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("annotation", "0036_campaign_side_by_side"),
    ]

    operations = [
        migrations.AddField(
            model_name="sidebyside",
            name="off",
            field=models.BooleanField(
                default=False,
                help_text="Turned off: its judges are not offered side by side; the queues "
                "drawn and the preferences given are kept, and its figures still read them.",
            ),
        ),
    ]
