"""The wider PII kinds: what each detector catches (zh, traditional zh, en, full-width), what it
leaves alone, and the placeholders it leaves behind."""

from __future__ import annotations

import time

import pytest

from jiyi.core.pii import find_pii, redact_pii
from jiyi.core.pii_kinds import PLACEHOLDERS_EN, PLACEHOLDERS_ZH, PRIORITY


def kinds(text: str) -> list[str]:
    return [f.kind for f in find_pii(text)]


def check(text: str, redacted: str, kind: str) -> None:
    out, redactions = redact_pii(text)
    assert out == redacted
    assert [r.kind for r in redactions] == [kind]
    assert kinds(text) == [kind]


@pytest.mark.parametrize(
    ("text", "redacted"),
    [
        ("我的护照号码是E12345678", "我的护照号码是[护照号]"),
        ("護照號碼：E12345678，下月到期", "護照號碼：[护照号]，下月到期"),
        ("护照EA1234567", "护照[护照号]"),
        ("出差带上E87654321这本护照", "出差带上[护照号]这本护照"),  # mainland e-passport shape
        ("护照号：Ｇ１２３４５６７８", "护照号：[护照号]"),  # full-width
        ("passport no. 123456789", "passport no. [passport]"),
        ("Passport: X1234567 expires soon", "Passport: [passport] expires soon"),
        ("my passport number is K12345678", "my passport number is [passport]"),
    ],
)
def test_passport_numbers(text: str, redacted: str) -> None:
    check(text, redacted, "passport")


@pytest.mark.parametrize(
    ("text", "redacted"),
    [
        ("电话010-12345678", "电话[电话]"),
        ("座机 0755-1234567", "座机 [电话]"),
        ("(02)2345-6789", "[phone]"),
        ("聯絡電話：(02)2345-6789", "聯絡電話：[电话]"),
        ("電話：2345 6789", "電話：[电话]"),  # Hong Kong, labelled
        ("Tel: 2345-6789", "Tel: [phone]"),
        ("电话：０２１－６２３４５６７８", "电话：[电话]"),  # full-width
        ("call the office on 020 7946 0958", "call the office on [phone]"),
        ("call me at +1 415-555-2671", "call me at [phone]"),
        ("+1 (415) 555-2671", "[phone]"),
        ("+44 20 7946 0958", "[phone]"),
        ("+852 2345 6789 是公司电话", "[电话] 是公司电话"),
        ("請撥 +886 2 2345 6789", "請撥 [电话]"),
        ("+81 3-1234-5678", "[phone]"),
    ],
)
def test_landline_and_international_numbers(text: str, redacted: str) -> None:
    check(text, redacted, "landline")


@pytest.mark.parametrize(
    ("text", "redacted"),
    [
        ("我的香港号码 +852 9123 4567", "我的香港号码 [手机号]"),
        ("台湾手机 0912-345-678", "台湾手机 [手机号]"),
        ("我的手机号是１３８１２３４５６７８，谢谢！", "我的手机号是[手机号]，谢谢！"),
        ("+8613812345678", "[phone]"),
    ],
)
def test_mobile_numbers_of_any_region(text: str, redacted: str) -> None:
    check(text, redacted, "phone")


@pytest.mark.parametrize(
    ("text", "redacted"),
    [
        ("SSN 536-22-1234", "SSN [SSN]"),
        ("my ssn is 536221234", "my ssn is [SSN]"),
        ("536-22-1234", "[SSN]"),
        ("社会安全号码：536-22-1234", "社会安全号码：[社会安全号]"),
    ],
)
def test_us_social_security_numbers(text: str, redacted: str) -> None:
    check(text, redacted, "ssn")


@pytest.mark.parametrize(
    ("text", "redacted"),
    [
        ("QQ号123456789", "QQ号[账号]"),
        ("我的QQ是 12345678", "我的QQ是 [账号]"),
        ("ＱＱ号１２３４５６７８９", "ＱＱ号[账号]"),  # full-width
        ("我的微信是 zhang_san88", "我的微信是 [账号]"),
        ("我的微信是zhangsan", "我的微信是[账号]"),
        ("加我微信zhangsan88", "加我微信[账号]"),
        ("微信號：abc_123", "微信號：[账号]"),
        ("用户名是zhangsan", "用户名是[账号]"),
        ("wechat id: zhang_san88", "wechat id: [account]"),
        ("telegram @handle_x", "telegram [account]"),
        ("my telegram is @alice_w", "my telegram is [account]"),
        ("account id 12345678", "account id [account]"),
        ("我的微信号是 wxid_abc12345678", "我的微信号是 [账号]"),
    ],
)
def test_labelled_account_ids(text: str, redacted: str) -> None:
    check(text, redacted, "account")


@pytest.mark.parametrize(
    ("text", "redacted"),
    [
        ("京A12345", "[车牌号]"),
        ("我的车是沪B·D12345", "我的车是[车牌号]"),  # new-energy plate
        ("粵B12345停在樓下", "[车牌号]停在樓下"),
        ("车牌号是粤B12345", "车牌号是[车牌号]"),
        ("車牌 AB 1234", "車牌 [车牌号]"),
        ("京Ａ１２３４５", "[车牌号]"),  # full-width
        ("my license plate is 7ABC123", "my license plate is [plate]"),
        ("plate: ABC 1234", "plate: [plate]"),
    ],
)
def test_licence_plates(text: str, redacted: str) -> None:
    check(text, redacted, "plate")


@pytest.mark.parametrize(
    ("text", "redacted"),
    [
        ("我住在北京市朝阳区建国路88号3号楼501", "我住在北京市朝阳区[地址]"),
        ("地址：上海市徐汇区漕溪北路1200号", "地址：上海市徐汇区[地址]"),
        ("深圳市南山区科技园路1号，周末见", "深圳市南山区[地址]，周末见"),
        ("淮海中路1088弄3号", "[地址]"),
        ("我住阳光小区3栋2单元501", "我住[地址]"),
        ("我家在翠湖花园5栋1203室", "我家在[地址]"),
        ("快递放3号楼2单元501室门口", "快递放[地址]门口"),
        ("台北市信義區信義路五段7號", "台北市信義區[地址]"),
        ("忠孝東路四段100巷5弄3號4樓", "[地址]"),
        ("我住在北京市朝阳区建国路８８号３号楼５０１室", "我住在北京市朝阳区[地址]"),
        ("I live at 123 Main Street", "I live at [address]"),
        ("221B Baker St, Apt 4", "[address]"),
        ("Send it to 1600 Pennsylvania Avenue, Suite 200 please", "Send it to [address] please"),
    ],
)
def test_street_addresses(text: str, redacted: str) -> None:
    check(text, redacted, "address")


@pytest.mark.parametrize(
    ("text", "redacted", "kind"),
    [
        ("IBAN DE89 3704 0044 0532 0130 00", "IBAN [IBAN]", "iban"),
        ("转账到GB82WEST12345698765432", "转账到[银行账号]", "iban"),
        ("统一社会信用代码91110108551385082Q", "统一社会信用代码[税号]", "tax_id"),
        ("EIN 12-3456789", "EIN [tax ID]", "tax_id"),
        ("身分證字號A123456789", "身分證字號[身份证号]", "id_card"),  # Taiwan
        ("HKID A123456(3)", "HKID [ID number]", "id_card"),  # Hong Kong
        ("13812345678@qq.com", "[email]", "email"),  # the more specific kind wins
    ],
)
def test_numbers_validated_by_checksum(text: str, redacted: str, kind: str) -> None:
    check(text, redacted, kind)


@pytest.mark.parametrize(
    "text",
    [
        # ordinary numbers
        "订单号2023112912345",
        "订单 0123456789",
        "编号 02162345678",
        "¥1299.00",
        "价格13812345678.50元",
        "1988年",
        "2024-05-20",
        "20240520",
        "the year 19880101",
        "时间14:30:00",
        "2024-05-20 10:30",
        "2024年5月20号下午3点",
        "共12345678人",
        "步数12345678步",
        "大约 1,234,567 人",
        "版本1.2.3",
        "version 2.10.1234567",
        "1234567890123456789",
        "室温26度",
        "温度-12.5℃",
        "我身高180cm",
        "身高175体重65",
        "打了400-800-8888客服",  # a company hotline is no one's PII
        # addresses
        "房间号 501",
        "3号线",
        "地铁3号线5号口",
        "88元",
        "5月20号",
        "我在3号楼开会",
        "我住5楼",
        "我在第3排5号座位",
        "买了3号电池",
        "知道88号",
        "建国路上有家店",
        "我住在杭州西湖区",
        "3-501",
        "Chapter 12 The Way",
        "I ran 5 miles on the way",
        "I have 2 cats",
        "5 Main problems",
        # accounts
        "my wechat is down",
        "my wechat is broken",
        "我的微信是多少",
        "QQ音乐",
        "QQ群里有123个人",
        "用户收藏了商品12345",
        "用户 12345",
        "user viewed item 4512",
        "line 12345 of the file",
        "会员价1299.00元",
        "会员1299.00",
        "账户余额12345元",
        "电话费88元",
        # plates, passports, SSNs, other checksummed numbers
        "坐G1234次列车",
        "航班CA1234",
        "型号A12345",
        "ABC1234 is my order",
        "a plate of 12 dumplings",
        "E12345 error",
        "078-05-1120",  # a blacklisted SSN
        "000-12-3456",
        "536221234",  # nine digits without a label
        "DE00 3704 0044 0532 0130 00",  # IBAN check digits wrong
        "A123456788",  # Taiwan ID checksum wrong
        "A123456(4)",  # Hong Kong ID check digit wrong
        "税号 12345",
    ],
)
def test_leaves_ordinary_text_alone(text: str) -> None:
    assert find_pii(text) == []
    assert redact_pii(text) == (text, [])


def test_full_width_text_keeps_its_punctuation() -> None:
    out, _ = redact_pii("电话：０１０－１２３４５６７８，护照Ｅ１２３４５６７８！ＡＢＣ？")
    assert out == "电话：[电话]，护照[护照号]！ＡＢＣ？"


def test_offsets_point_into_the_original_text() -> None:
    text = "ｈｉ，我的车牌是京Ａ１２３４５，电话０１０－１２３４５６７８"
    spans = [(f.kind, text[f.start : f.end]) for f in find_pii(text)]
    assert spans == [("plate", "京Ａ１２３４５"), ("landline", "０１０－１２３４５６７８")]


def test_several_kinds_in_one_message_are_counted() -> None:
    text = "我叫王伟，电话010-12345678，手机13812345678，住建国路88号，车牌京A12345，QQ号123456789"
    out, redactions = redact_pii(text)
    assert out == "我叫王伟，电话[电话]，手机[手机号]，住[地址]，车牌[车牌号]，QQ号[账号]"
    assert {r.kind: r.count for r in redactions} == {
        "landline": 1,
        "phone": 1,
        "address": 1,
        "plate": 1,
        "account": 1,
    }


def test_every_kind_has_placeholders_without_digits_or_at() -> None:
    assert set(PLACEHOLDERS_ZH) == set(PLACEHOLDERS_EN) == set(PRIORITY)
    for label in [*PLACEHOLDERS_ZH.values(), *PLACEHOLDERS_EN.values()]:
        assert not any(ch.isdigit() for ch in label) and "@" not in label
        assert find_pii(label) == []


def test_a_long_chinese_message_is_cheap() -> None:
    base = "我今天去了北京市朝阳区的一家咖啡店，点了一杯拿铁，花了38元，2024年5月20号下午3点。"
    text = (base * 40)[:1990] + "电话１３８１２３４５６７８"
    assert redact_pii(text)[1][0].kind == "phone"
    runs = 20
    start = time.perf_counter()
    for _ in range(runs):
        redact_pii(text)
    # About 1 ms on a 2-core machine; the bound only catches a detector gone quadratic.
    assert (time.perf_counter() - start) / runs < 0.02
