"""The renderer fits a decision of any size to Discord: four select menus of 25 a page, "◀ Previous" /
"Next ▶" buttons between pages (the page lives only in their custom_ids), every text within Discord's
limits. Checked on a toy game offering 130 choices in one group, with the sandbox's limits validator. A
group of cards with faces is a button per card when the decision fits (checked on Minimisère's hands)."""

from __future__ import annotations

from datetime import datetime, timezone

from discord import ButtonStyle

from cogs.tables import action_menus, layouts, render
from cogs.tables import custom_ids as ids
from cogs.tables.drawn import Attachment, Drawn
from engine import LegalAction
from engine.tables.session import TableDraft, TableSession, TableSettings
from sandbox.limits import validate_message
from tests.tables import drawing
from tests.tables.toy_game import WIDE_PICKS, WidePick

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)
HOST, BOB = 1, 2


def wide_game() -> TableSession:
    session = TableDraft("wide1234", 10, 20, WidePick(), TableSettings(30, 5, 2), HOST, "host")
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

    session = TableDraft("memo1234", 10, 20, GAMES["memory"], TableSettings(30, 5, 2), HOST, "host")
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


def faced_actions(group: str, count: int, prefix: str = "c") -> tuple[LegalAction, ...]:
    return tuple(LegalAction(f"{prefix}{n}", f"Card {n}", group=group) for n in range(count))


def face_of(code: str) -> dict | None:
    """A face for every code starting "c" (a card), none for the others."""
    if not code.startswith("c"):
        return None
    return {"id": "1300000000000000001", "name": f"fr_{code}_a1b2c3", "animated": False}


def placed_buttons(items: list[action_menus.Placed]) -> list[tuple[int, str]]:
    """The buttons of ``items``: ``(row, what its custom_id names after the table and version)``."""
    return [(row, b["custom_id"].rsplit(":", 1)[1]) for row, b in items if b["type"] == drawing.BUTTON]


def is_card(code: str) -> bool:
    return face_of(code) is not None


def test_a_group_of_cards_is_a_button_each_from_a_row_of_its_own_while_the_decision_fits() -> None:
    draws = (LegalAction("draw.0", "Draw"), LegalAction("draw.1", "Draw"))
    cards, others = faced_actions("Play a card…", 7), faced_actions("Pick a spot…", 3, "spot")
    items = action_menus.action_components(
        "tbl12345", 0, draws + cards + others, str, 0, face_of, is_card=is_card
    )
    assert placed_buttons(items) == [(0, "a.draw.0"), (0, "a.draw.1")] + [
        (1 + n // 5, f"a.c{n}") for n in range(7)
    ]
    assert [item["emoji"]["name"] for _, item in items if item.get("label", "").startswith("Card")] == [
        f"fr_c{n}_a1b2c3" for n in range(7)
    ]
    assert [(row, item["placeholder"]) for row, item in items if item["type"] == drawing.SELECT] == [
        (3, "Pick a spot…")  # not cards: a menu, as before
    ]
    # Groups in turn while the whole decision fits in rows 0-3: 10 cards (two rows), not the next 10 (a
    # menu, as it would not fit), then 5 (one row, in place of its menu).
    groups = faced_actions("A", 10, "ca") + faced_actions("B", 10, "cb") + faced_actions("C", 5, "cc")
    items = action_menus.action_components("tbl12345", 0, groups, str, 0, face_of, is_card=is_card)
    assert placed_buttons(items) == [(n // 5, f"a.ca{n}") for n in range(10)] + [
        (2, f"a.cc{n}") for n in range(5)
    ]
    assert [(row, len(item["options"])) for row, item in items if item["type"] == drawing.SELECT] == [(3, 10)]
    # More cards than four rows hold: a menu, each option with its face; nothing known to be a card: a menu.
    for many, card in ((faced_actions("Play a card…", 21), is_card), (cards, None)):
        items = action_menus.action_components("tbl12345", 0, many, str, 0, face_of, is_card=card)
        ((row, menu),) = items
        assert row == 0 and menu["type"] == drawing.SELECT and len(menu["options"]) == len(many)
        assert all("emoji" in option for option in menu["options"])
    # Cards with no emoji yet (or none to be had): still a button each, named, with no face.
    items = action_menus.action_components("tbl12345", 0, cards, str, 0, None, is_card=is_card)
    assert placed_buttons(items) == [(n // 5, f"a.c{n}") for n in range(7)]
    assert not any("emoji" in item for _, item in items)


def test_the_most_buttons_a_message_holds_stay_within_the_40_components_of_components_v2() -> None:
    """Rows 0-3 full of card buttons, a full fifth row, a picture, a notice and a DM's intro: 37."""
    twenty = faced_actions("Play a card…", 20)
    items = action_menus.action_components("tbl12345", 0, twenty, str, 0, face_of, is_card=is_card)
    more = ButtonStyle.secondary
    items.extend((4, action_menus.button(f"ct:tbl12345:0:v{n}", "More", more)) for n in range(5))
    picture = Attachment("table.png", lambda: b"png", "the table")
    text = layouts.Card(0, "Your hand", "Your turn", fields=[layouts.CardField("Hand", "10♥")])
    rows = action_menus.rows(items)
    card = layouts.with_notice(layouts.card(text, rows, (picture,)), "The window closed", rows)
    drawn = Drawn(components=card, attachments=(picture,), layout=True).with_content("It is your turn")
    errors = validate_message(drawing.payload(drawn))
    assert not errors, errors.summary()

    def count(components) -> int:
        return sum(1 + count(component.get("components") or ()) for component in components)

    assert count(drawn.components) == 37 and len(drawing.buttons(drawn)) == 25


def test_a_minimisere_hand_is_a_button_per_card_carrying_its_face(card_emojis) -> None:
    from engine.registry import GAMES

    session = TableDraft("mini1234", 10, 20, GAMES["minimisere"], TableSettings(30, 5, 2), HOST, "host")
    for user in (BOB, 3):
        session.join(user, f"player{user}")
    session.start(HOST, 1, NOW)  # three players: seven cards each
    (user,) = session.users_to_act()
    offered = session.view(session.seat_of(user)).legal_actions
    assert len(offered) == 7 and {action.group for action in offered} == {"Play a card…"}
    drawn = render.private_message(session, user, jump_url="https://discord.com/x", offer_dm=True)
    errors = validate_message(drawing.payload(drawn.with_content("It is your turn")))
    assert not errors, errors.summary()
    assert not drawing.menus(drawn) and [len(row) for row in drawing.rows(drawn)][:2] == [5, 2]
    cards = drawing.buttons(drawn)[:7]
    assert [ids.TableCustomId.parse(b["custom_id"]).action for b in cards] == [a.code for a in offered]
    assert [b["emoji"] for b in cards] == [card_emojis.for_action("minimisere", a.code) for a in offered]
    assert [b["label"] for b in cards] == [a.label for a in offered]
    card_emojis.clear()  # the emojis off: the same buttons, named, with no face
    plain_view = render.private_message(session, user)
    assert not drawing.menus(plain_view) and [len(row) for row in drawing.rows(plain_view)][:2] == [5, 2]
    assert [b["label"] for b in drawing.buttons(plain_view)[:7]] == [a.label for a in offered]
    assert not any("emoji" in b for b in drawing.buttons(plain_view)[:7])
