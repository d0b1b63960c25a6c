# ruff: noqa: RUF001 (Cyrillic letters that look like Latin ones are meant)
"""The phones' page's own words (``assets/web``), in every language of the window.

The page shows the window's words wherever the window has them (the room, the table, the
log, the refusals); these are the few things only a browser says: connecting over the
WebSocket, a page that cannot check a deal, the full-screen button, a party's door.
Kept apart from the main catalogues as the party's are; ``client.i18n`` merges them in,
and ``python -m client.i18n.export`` writes them with the rest for the page.
"""

from __future__ import annotations

__all__ = ["TEXTS"]

EN: dict[str, str] = {
    "web.connecting": "Connecting to the table…",
    "web.gone": "Not connected",
    "web.join_again": "Join again",
    "web.retry": "Try again",
    "web.fullscreen": "Full screen",
    "web.thinking": "Thinking…",
    "web.seat_menu": "Who sits here?",
    "web.tap_seat": "Tap an open seat to give it to the computer.",
    "web.watchers_none": "Nobody is watching.",
    "web.close": "Close",
    "web.party_table_wait": "The game begins once everyone at this table is here.",
    "web.party_name_taken": "Another player of the party has a name that reads so: choose another.",
    "web.party_full": "The party has as many players as it takes.",
    "web.tap_card": "Tap a card, then tap where it goes — or drag it there.",
    "web.deal_checked": "The deal came from everyone's random numbers, as promised.",
    "web.deal_pending": "Checking the deal…",
    "web.deal_late": "your random contribution came too late to be counted",
    "web.name_needed": "Type a name first.",
    "web.stock": "Stock",
}

DE: dict[str, str] = {
    "web.connecting": "Verbinde mit dem Tisch…",
    "web.gone": "Nicht verbunden",
    "web.join_again": "Neu beitreten",
    "web.retry": "Noch einmal",
    "web.fullscreen": "Vollbild",
    "web.thinking": "Denkt nach…",
    "web.seat_menu": "Wer sitzt hier?",
    "web.tap_seat": "Tippe auf einen freien Platz, um ihn dem Computer zu geben.",
    "web.watchers_none": "Niemand schaut zu.",
    "web.close": "Schließen",
    "web.party_table_wait": "Das Spiel beginnt, sobald alle an diesem Tisch da sind.",
    "web.party_name_taken": (
        "Ein anderer Spieler der Party hat einen so lautenden Namen: wähle einen anderen."
    ),
    "web.party_full": "Die Party hat so viele Spieler, wie sie aufnimmt.",
    "web.tap_card": "Tippe auf eine Karte, dann auf ihr Ziel — oder zieh sie dorthin.",
    "web.deal_checked": "Das Geben kam wie versprochen aus den Zufallszahlen aller.",
    "web.deal_pending": "Prüfe das Geben…",
    "web.deal_late": "dein Zufallsbeitrag kam zu spät, um mitzuzählen",
    "web.name_needed": "Gib zuerst einen Namen ein.",
    "web.stock": "Stapel",
}

NL: dict[str, str] = {
    "web.connecting": "Verbinden met de tafel…",
    "web.gone": "Niet verbonden",
    "web.join_again": "Opnieuw meedoen",
    "web.retry": "Opnieuw proberen",
    "web.fullscreen": "Volledig scherm",
    "web.thinking": "Denkt na…",
    "web.seat_menu": "Wie zit hier?",
    "web.tap_seat": "Tik op een open plaats om die aan de computer te geven.",
    "web.watchers_none": "Niemand kijkt mee.",
    "web.close": "Sluiten",
    "web.party_table_wait": "Het spel begint zodra iedereen aan deze tafel er is.",
    "web.party_name_taken": (
        "Een andere speler van het feest heeft een naam die zo leest: kies een andere."
    ),
    "web.party_full": "Het feest heeft zoveel spelers als het aankan.",
    "web.tap_card": "Tik op een kaart en dan op waar ze heen moet — of sleep ze erheen.",
    "web.deal_checked": "Het delen kwam zoals beloofd uit ieders toevalsgetallen.",
    "web.deal_pending": "Het delen wordt gecontroleerd…",
    "web.deal_late": "je toevalsbijdrage kwam te laat om mee te tellen",
    "web.name_needed": "Typ eerst een naam.",
    "web.stock": "Stapel",
}

RU: dict[str, str] = {
    "web.connecting": "Подключение к столу…",
    "web.gone": "Нет связи",
    "web.join_again": "Войти снова",
    "web.retry": "Ещё раз",
    "web.fullscreen": "Во весь экран",
    "web.thinking": "Думает…",
    "web.seat_menu": "Кто сидит здесь?",
    "web.tap_seat": "Коснись свободного места, чтобы отдать его компьютеру.",
    "web.watchers_none": "Никто не смотрит.",
    "web.close": "Закрыть",
    "web.party_table_wait": "Игра начнётся, когда все за этим столом будут на месте.",
    "web.party_name_taken": "У другого игрока вечеринки такое же имя: выбери другое.",
    "web.party_full": "На вечеринке уже столько игроков, сколько она вмещает.",
    "web.tap_card": "Коснись карты, а потом места, куда её положить, — или перетащи её.",
    "web.deal_checked": "Раздача сложилась из случайных чисел всех игроков, как обещано.",
    "web.deal_pending": "Проверка раздачи…",
    "web.deal_late": "твой случайный вклад пришёл слишком поздно и не учтён",
    "web.name_needed": "Сначала введи имя.",
    "web.stock": "Колода",
}

TEXTS: dict[str, dict[str, str]] = {"en": EN, "de": DE, "nl": NL, "ru": RU}
