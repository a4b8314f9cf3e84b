"""The campaign pages, mounted under ``/campaigns/`` in the ``campaigns`` namespace: the
judges page, the campaigns (``c/``, one page each, with its rules), a page per corpus
(its judges and settings), and the per-annotator links of a campaign. The annotators'
side of those links (``/a/…``) is at the site's root (``evaltool/urls.py``)."""

from django.urls import path

from annotation.campaigns import campaign_views, link_views, views

app_name = "campaigns"

urlpatterns = [
    path("", views.judges_page, name="judges"),
    path("judges/new/", views.judge_create_view, name="judge_create"),
    path("judges/bulk/", views.judges_bulk_create, name="judges_bulk"),
    path("judges/<int:pk>/password/", views.judge_password, name="judge_password"),
    path("judges/<int:pk>/active/", views.judge_active, name="judge_active"),
    path("c/", campaign_views.campaign_list, name="campaigns"),
    path("c/new/", campaign_views.campaign_new, name="campaign_create"),
    path("c/<int:pk>/", campaign_views.campaign_page, name="campaign"),
    path("c/<int:pk>/rename/", campaign_views.campaign_rename_view, name="campaign_rename"),
    path("c/<int:pk>/corpora/", campaign_views.campaign_add_corpus, name="campaign_add_corpus"),
    path("c/<int:pk>/delete/", campaign_views.campaign_delete_view, name="campaign_delete"),
    path(
        "c/<int:pk>/side-by-side/",
        campaign_views.campaign_side_by_side,
        name="campaign_side_by_side",
    ),
    path("c/<int:pk>/stop/", campaign_views.campaign_stop_view, name="campaign_stop"),
    path("<int:pk>/", views.campaign_page, name="corpus"),
    path("<int:pk>/campaign.csv", views.campaign_csv_download, name="campaign_csv"),
    path("<int:pk>/assign/", views.campaign_assign, name="assign"),
    path("<int:pk>/unassign/", views.campaign_unassign, name="unassign"),
    path("<int:pk>/settings/", views.campaign_settings, name="settings"),
    path("<int:pk>/leave-out/", views.campaign_leave_out, name="leave_out"),
    path("<int:pk>/set-aside/", views.campaign_set_aside, name="set_aside"),
    path("<int:pk>/discard/", views.campaign_discard, name="discard"),
    path("<int:pk>/pairs/", views.campaign_pairs, name="pairs"),
    # Per-annotator links, per campaign (a campaign holds one or more corpora).
    path("links/<int:campaign_pk>/", link_views.links_page, name="links"),
    path("links/<int:campaign_pk>/new/", link_views.links_create_view, name="links_create"),
    path(
        "links/<int:campaign_pk>/revoke-all/",
        link_views.links_revoke_all_view,
        name="links_revoke_all",
    ),
    path(
        "links/<int:campaign_pk>/<int:link_pk>/revoke/",
        link_views.link_revoke_view,
        name="link_revoke",
    ),
    path("c/<int:pk>/rules/", views.campaign_rules, name="rules"),
]
