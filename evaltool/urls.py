from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from annotation.accounts import PasswordChangeForm

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
]

handler400 = "annotation.web.bad_request"
handler500 = "annotation.web.server_error"
