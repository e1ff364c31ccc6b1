"""The new-tournament form follows the chosen kind in the browser
(static/js/tournament_form.js): the team settings show only for "A squadre", the Mitchell step
only for "A coppie", and a team tournament is offered a plan without Mitchell rounds (README,
"Team tournaments": M is refused for teams), undone when the kind goes back."""
from .helpers import log_in_arbiter, submit


def test_kind_choice_hides_other_kinds_fields_and_proposes_a_team_plan(page, live_server, django_user_model):
    base = live_server.url
    log_in_arbiter(page, base, django_user_model)
    page.goto(base + "/tornei/nuovo/")
    step, team_result = page.locator("#id_mitchell_step"), page.locator("#id_team_result")
    assert page.input_value("#id_plan") == "MMMD"
    assert step.is_visible() and not team_result.is_visible()

    page.select_option('select[name="kind"]', "teams")
    assert page.input_value("#id_plan") == "RRRD"  # M → R: MMMD has three Mitchell rounds
    assert team_result.is_visible() and page.locator("#id_team_max_players").is_visible()
    assert not step.is_visible()
    assert page.locator('#id_first_round option[value="number"]').inner_text() == "Per numero di squadra"

    page.select_option('select[name="kind"]', "individual")
    assert page.input_value("#id_plan") == "MMMD"  # the proposal undone: the plan was not touched
    assert not team_result.is_visible() and not step.is_visible()

    page.select_option('select[name="kind"]', "teams")
    page.fill('input[name="name"]', "Squadre del giovedì")
    page.fill('input[name="slug"]', "giovedi")
    page.fill('input[name="date"]', "2026-12-10")
    page.select_option('select[name="vp_scale"]', "vp20-4h")
    submit(page, "button.primary")
    assert page.url.endswith("/tornei/giovedi/")  # the proposed plan is accepted by the server
