from django.apps import AppConfig

#: The modules that register job handlers (:func:`annotation.jobs.handler`): imported when
#: the app starts, so a worker knows every kind of job whatever it imported first.
JOB_HANDLER_MODULES: tuple[str, ...] = (
    "annotation.statistics.jobs",
    "annotation.corpora.removal",
    "annotation.corpora.import_jobs",
    "annotation.corpora.system_jobs",
    "annotation.campaigns.drawing",
)


class AnnotationConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "annotation"
    verbose_name = "Annotation (evalTrans corpora and judgments)"

    def ready(self) -> None:
        from importlib import import_module

        from django.db.models.signals import post_migrate

        from annotation.statistics import cache_table_created

        for module in JOB_HANDLER_MODULES:
            import_module(module)
        # The figures' store's table, where it is the database's: made by every migrate.
        post_migrate.connect(cache_table_created, sender=self)
