"""Labelled account ids (QQ, WeChat, Telegram, …) and vehicle licence plates.

An account id is only taken when a label names the service right before it: ``QQ号123456789``,
``我的微信是 zhang_san88``, ``微信號：abc_123``, ``telegram @handle``. A value made of letters
alone could be an ordinary word, so it is taken only after a Chinese label or an explicit
``id`` / ``:``. Mainland plates (``京A12345``, new-energy ``沪B·D12345``) are recognised by shape;
other plates only after a label (``plate``, ``license plate``, ``车牌``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from jiyi.core.pii_kinds import CONNECT, Span, View, scan

__all__ = ["find_accounts", "find_plates"]

_ID_SUFFIX = r"(?:号码|號碼|账号|帳號|帐号|号|號|(?i: ?id| ?number| ?no\.?| ?account))?"
_QQ_RE = re.compile(
    r"(?<![A-Za-z])(?i:qq)" + _ID_SUFFIX + CONNECT + r"(?P<v>[1-9]\d{4,11})(?![\d.])"
)
_HANDLE_LABELS = (
    r"(?P<label>微信|微博|抖音|快手|小红书|小紅書|钉钉|釘釘|飞书|飛書|支付宝|支付寶|淘宝|淘寶"
    r"|电报|電報|推特|脸书|臉書|用户名|用戶名|用户|用戶|账号|帳號|帐号|账户|帳戶|会员|會員"
    r"|(?<![A-Za-z])(?i:wechat|weixin|wx|vx|telegram|tg|twitter|instagram|ig|discord|skype"
    r"|line ?id|snapchat|kakao|kakaotalk|signal|github|reddit|tiktok|weibo|alipay|username"
    r"|user ?name|user|account|handle)(?![A-Za-z]))"
)
_HANDLE_RE = re.compile(
    _HANDLE_LABELS
    + r"(?P<suffix>"
    + _ID_SUFFIX
    + r")(?P<connect>"
    + CONNECT
    + r")(?P<v>@?[A-Za-z0-9][A-Za-z0-9_.-]{2,30}[A-Za-z0-9_])(?![A-Za-z0-9_@-]|\.[A-Za-z0-9])"
)
# WeChat's generated ids are recognisable on their own.
_WXID_RE = re.compile(r"(?<![A-Za-z0-9_])wxid_[a-z0-9]{8,24}(?![A-Za-z0-9_])")
# Cheap pre-check: the handle pattern runs only when one of these is in the (lower-cased) text.
_HANDLE_WORDS = tuple(
    """微信 微博 抖音 快手 小红书 小紅書 钉钉 釘釘 飞书 飛書 支付 淘宝 淘寶 电报 電報 推特 脸书 臉書
    用户 用戶 账号 帳號 帐号 账户 帳戶 会员 會員 wechat weixin wx vx telegram tg twitter instagram
    ig discord skype line snapchat kakao signal github reddit tiktok weibo alipay user account
    handle""".split()
)
# Generic labels, which need a stronger value than a service name does.
_GENERIC = {"用户", "用戶", "账号", "帳號", "帐号", "账户", "帳戶", "会员", "會員"}
_GENERIC_EN = {"user", "account", "handle"}
# A price, a decimal or a date is not an id (会员1299.00, 账号 2024-05-20).
_NUMBER_RE = re.compile(r"\d+(?:[.-]\d+)+")

_PROVINCES = (
    "京津沪滬渝冀豫云雲辽遼黑湘皖鲁魯新苏蘇浙赣贛鄂桂甘晋晉蒙陕陝吉闽閩贵貴粤粵青藏川宁寧琼瓊"
)
_PLATE_CHARS = "A-HJ-NP-Z0-9"  # plates skip I and O
_CN_PLATE_RE = re.compile(
    rf"[{_PROVINCES}][A-HJ-NP-Z][·•・. -]?"
    rf"(?:[DF][{_PLATE_CHARS}]\d{{4}}|\d{{5}}[DF]|[{_PLATE_CHARS}]{{4}}[{_PLATE_CHARS}挂掛学學警港澳])"
    r"(?![A-Za-z0-9])"
)
_PLATE_LABEL_RE = re.compile(
    r"(?:车牌|車牌|(?<![A-Za-z])(?i:(?:licen[cs]e |number |car |vehicle )?plates?)(?![A-Za-z]))"
    r"(?:号码|號碼|号|號|(?i: ?number| ?no\.?))?"
    + CONNECT
    + r"(?P<v>[A-Z0-9]{2,8}(?:[ -][A-Z0-9]{3,4})?)(?![A-Za-z0-9])"
)


def find_accounts(v: View) -> Iterator[Span]:
    """Labelled account ids in the NFKC view ``v``."""
    if v.digits >= 5 and "qq" in v.lower:
        for m in _QQ_RE.finditer(v.text):
            yield "account", m.start("v"), m.end("v")
    if v.mentions(_HANDLE_WORDS):
        yield from _handles(v.text)
    if "wxid_" in v.text:
        for m in _WXID_RE.finditer(v.text):
            yield "account", m.start(), m.end()


def _handles(text: str) -> Iterator[Span]:
    for m in scan(_HANDLE_RE, text, _plausible_handle):
        yield "account", m.start("v"), m.end("v")


def _plausible_handle(m: re.Match[str]) -> bool:
    value, label = m["v"], m["label"]
    if value.startswith("@"):
        return True
    if _NUMBER_RE.fullmatch(value):
        return False
    has_digit = any(ch.isdigit() for ch in value)
    connect = m["connect"]
    marked = bool(m["suffix"]) or ":" in connect
    if label in _GENERIC or label.lower() in _GENERIC_EN:
        # 账号/user alone labels many things: want a digit, and an explicit 号/id/:/是.
        said = marked or "是" in connect or "为" in connect or "is" in connect
        return (has_digit or "_" in value) and said
    if has_digit or "_" in value:
        return True
    # Letters only: an ordinary word after an English label ("my wechat is down").
    return len(value) >= 5 and (marked or not label.isascii())


def find_plates(v: View) -> Iterator[Span]:
    """Licence plates in the NFKC view ``v``."""
    if v.digits < 3:
        return
    for m in scan(_CN_PLATE_RE, v.text, lambda m: sum(c.isdigit() for c in m[0][2:]) >= 3):
        yield "plate", m.start(), m.end()
    if v.mentions(("车牌", "車牌", "plate")):
        for m in scan(_PLATE_LABEL_RE, v.text, _plausible_plate):
            yield "plate", m.start("v"), m.end("v")


def _plausible_plate(m: re.Match[str]) -> bool:
    value = m["v"]
    mixed = any(ch.isdigit() for ch in value) and any(ch.isalpha() for ch in value)
    return mixed and 4 <= sum(ch.isalnum() for ch in value) <= 8
