"""replay's comparison of a recorded dialogue with today's (prototest.play.replay.first_difference)."""

from prototest.play.replay import first_difference

RECORDED = ["> white", "> NONE 1000 1000 fen", "< e2e4", "> A 990", "> e7e5 990 1000 fen", "< g1f3"]


def test_a_busy_machine_warning_is_no_difference():
    """Whether a busy_machine warning comes depends on what else ran: a replay on a loaded
    machine that gets one plays the same game (issue 29: match replays 'DIFFERS' under load)."""
    now = RECORDED[:3] + ["W busy_machine: 'e2e4' after 1200.0 ms: over the 1000 ms it had, but the machine "
                          "kept 900.0 ms of it from the answer"] + RECORDED[3:]
    assert first_difference(RECORDED, now) is None
    assert first_difference(now, RECORDED) is None


def test_a_warning_of_the_bots_own_is_still_a_difference():
    now = RECORDED[:3] + ["W slow: 'e2e4' after 950.0 ms, 95% of the 1000 ms it had"] + RECORDED[3:]
    assert first_difference(RECORDED, now) == (3, 3)
    moved = RECORDED[:2] + ["< d2d4"] + RECORDED[3:]
    assert first_difference(RECORDED, moved) == (2, 2)
