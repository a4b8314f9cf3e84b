from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from annotation.accounts import PasswordChangeForm
from annotation.campaigns import link_views
from annotation.campaigns.link_tokens import LINK_PATH, LINK_URL_NAME

#: Where per-annotator links live, "a/" (their token's redaction in logs knows the path).
LINKS = LINK_PATH.lstrip("/")

urlpatterns = [
    path("admin/", admin.site.urls),
    # Before Django's own: the same URL and name, with the form that ends a one-time password.
    path(
        "accounts/password_change/",
        auth_views.PasswordChangeView.as_view(form_class=PasswordChangeForm),
        name="password_change",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("annotation.urls")),
    path("dashboard/", include("annotation.dashboard.urls")),
    path("controls/", include("annotation.controls.urls")),
    path("campaigns/", include("annotation.campaigns.urls")),
    # Per-annotator links (annotation.campaigns.link_views): short, outside every
    # namespace; the two fixed paths before the token's.
    path(f"{LINKS}next/", link_views.link_next_view, name="annotation_link_next"),
    path(f"{LINKS}ended/", link_views.link_ended, name="annotation_link_ended"),
    path(f"{LINKS}<str:token>/", link_views.link_open, name=LINK_URL_NAME),
]

handler400 = "annotation.web.bad_request"
handler500 = "annotation.web.server_error"
