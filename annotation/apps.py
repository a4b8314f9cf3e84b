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

        for module in JOB_HANDLER_MODULES:
            import_module(module)
