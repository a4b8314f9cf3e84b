"""Every corpus has its campaign (0023 gave each one its own); a migration apart, so
PostgreSQL alters the column after the transaction that filled it."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("annotation", "0023_campaigns_of_corpora"),
    ]

    operations = [
        migrations.AlterField(
            model_name="corpus",
            name="campaign",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="corpora",
                to="annotation.campaign",
            ),
        ),
    ]
