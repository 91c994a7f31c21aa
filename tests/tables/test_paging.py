"""The renderer fits a decision of any size to Discord: four select menus of 25 a page, "◀ Previous" /
"Next ▶" buttons between pages (the page lives only in their custom_ids), every text within Discord's
limits. Checked on a toy game offering 130 choices in one group, with the sandbox's limits validator."""

from __future__ import annotations

from datetime import datetime, timezone

from cogs.tables import action_menus, render
from cogs.tables import custom_ids as ids
from cogs.tables.drawn import Drawn
from engine import LegalAction
from engine.tables.session import TableSession, TableSettings
from sandbox.limits import validate_message
from tests.tables import drawing
from tests.tables.toy_game import WIDE_PICKS, WidePick

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)
HOST, BOB = 1, 2


def wide_game() -> TableSession:
    session = TableSession("wide1234", 10, 20, WidePick(), TableSettings(30, 5, 2), HOST, "host")
    session.join(BOB, "bob")
    session.start(HOST, 1, NOW)
    return session


def menus_and_paging(drawn: Drawn) -> tuple[list[dict], dict[str, ids.TableCustomId]]:
    paging = {}
    for button in drawing.buttons(drawn):
        target = ids.TableCustomId.parse(button["custom_id"])
        if target is not None and target.page is not None:
            paging[button["label"]] = target
    return drawing.menus(drawn), paging


def test_130_choices_in_one_group_are_all_reachable_through_pages_within_discords_limits() -> None:
    session = wide_game()
    reached: list[str] = []
    page, pages_seen = 0, []
    while page is not None:
        drawn = render.private_message(session, BOB, jump_url="https://discord.com/x", page=page)
        errors = validate_message(drawing.payload(drawn))
        assert not errors, errors.summary()
        menus, paging = menus_and_paging(drawn)
        assert 1 <= len(menus) <= 4 and all(len(menu["options"]) <= 25 for menu in menus)
        assert len(drawing.components(drawn)) <= 25 and len(drawn.components) <= 5
        for menu in menus:
            for option in menu["options"]:
                pressed = ids.parse_select(menu["custom_id"], option["value"])
                assert pressed is not None and pressed.version == session.state.version
                reached.append(pressed.action)
        pages_seen.append(page)
        following = [target.page for label, target in paging.items() if label.startswith("Next")]
        previous = [target.page for label, target in paging.items() if label.startswith("◀")]
        assert previous == ([page - 1] if page else [])
        page = following[0] if following else None
    assert pages_seen == [0, 1]
    assert reached == [f"pick.{n}" for n in WIDE_PICKS]  # every choice once, in order


def test_a_page_beyond_the_last_shows_the_last_and_paging_changes_nothing_in_the_game() -> None:
    session = wide_game()
    version = session.state.version
    last = render.private_message(session, BOB, page=1)
    beyond = render.private_message(session, BOB, page=99)
    assert last.components == beyond.components
    assert session.state.version == version and session.state.picks == {}


def test_long_texts_are_clipped_to_discords_lengths() -> None:
    session = wide_game()
    long = "x" * 300
    actions = tuple(LegalAction(f"c{n}", long, description=long, group=long) for n in range(30)) + (
        LegalAction("b", long),
    )
    items = render.action_components(session, actions)
    errors = validate_message({"content": "x", "components": list(action_menus.rows(items))})
    assert not errors, errors.summary()
    menu = next(item for _, item in items if item["type"] == drawing.SELECT)
    assert len(menu["placeholder"]) == action_menus.PLACEHOLDER_MAX
    assert {len(option["label"]) for option in menu["options"]} == {action_menus.OPTION_TEXT_MAX}


def test_paging_custom_ids_round_trip_and_stay_within_100_characters() -> None:
    target = ids.TableCustomId.for_page("abcdefghijklmnop", 9_999_999, 999)
    assert len(str(target)) <= 100 and ids.TableCustomId.parse(str(target)) == target
    assert target.page == 999 and target.action is None
    assert ids.TableCustomId.parse("ct:abcd1234:1:p.x") is None


def test_a_card_of_deluxe_memorys_grid_is_picked_by_its_row_then_itself_every_one_reachable() -> None:
    from engine.registry import GAMES

    session = TableSession("memo1234", 10, 20, GAMES["memory"], TableSettings(30, 5, 2), HOST, "host")
    session.join(BOB, "bob")
    session.start(HOST, 1, NOW)
    (user,) = session.users_to_act()
    offered = {action.code for action in session.view(session.seat_of(user)).legal_actions}
    first = render.private_message(session, user)
    assert not drawing.menus(first), "no list of coordinates"
    rows = [
        ids.TableCustomId.parse(b["custom_id"])
        for b in drawing.buttons(first)
        if b["label"].startswith("Row")
    ]
    assert [target.row for target in rows] == list(range(7))  # rows A-G all hold face-down cards
    reached = []
    for target in rows:
        shown = render.private_message(session, user, row=target.row)
        errors = validate_message(drawing.payload(shown))
        assert not errors, errors.summary()
        assert not drawing.menus(shown) and len(shown.components) <= 5
        picks = [ids.TableCustomId.parse(b["custom_id"]) for b in drawing.buttons(shown)]
        codes = [pick.action for pick in picks if pick is not None and pick.action is not None]
        assert 1 <= len(codes) <= 8 and {code[-2] for code in codes} == {"ABCDEFG"[target.row]}
        assert any(b["label"] == action_menus.OTHER_ROWS for b in drawing.buttons(shown))
        reached.extend(codes)
    assert sorted(reached) == sorted(offered)  # every card once, each in two presses
    # Ten choices or fewer are buttons at once (one press); a row is never a list.
    few = tuple(action for action in session.view(session.seat_of(user)).legal_actions)[:10]
    board = session.view(session.seat_of(user)).board
    items = action_menus.action_components("memo1234", 0, few, str, board=board)
    assert [b["custom_id"].rsplit(":", 1)[1] for _, b in items] == [f"a.{a.code}" for a in few]
