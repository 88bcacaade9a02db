"""Health vocabulary: conditions (one topic key per illness, whatever the language or the
wording) and medicines.

"我有高血压", "我血压有点高", "I have high blood pressure" and "I'm hypertensive" all land in
``health.condition.hypertension``, so a later "我血压已经正常了" corrects the same slot.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.lexicon import alternation

__all__ = [
    "CONDITIONS",
    "CONDITION_RE",
    "DRUG_RE_EN",
    "DRUG_RE_ZH",
    "HEALTH_RE",
    "is_drug",
    "named_drug",
]

# (surface forms, topic key, zh content, en content)
_CONDITIONS: tuple[tuple[str, str, str, str], ...] = (
    ("高血压|血压高|high blood pressure|hypertension|hypertensive", "hypertension", "有高血压",
     "has high blood pressure"),
    ("低血压|low blood pressure", "hypotension", "有低血压", "has low blood pressure"),
    ("糖尿病|血糖高|高血糖|diabetes|diabetic|prediabetic|prediabetes", "diabetes", "有糖尿病",
     "has diabetes"),
    ("低血糖|hypoglycemia", "hypoglycemia", "有低血糖", "gets low blood sugar"),
    ("乳糖不耐受|乳糖不耐|lactose intolerant|lactose intolerance", "lactose_intolerance",
     "乳糖不耐受", "is lactose intolerant"),
    ("哮喘|气喘|asthma|asthmatic", "asthma", "有哮喘", "has asthma"),
    ("痛风|gout", "gout", "有痛风", "has gout"),
    # high uric acid is not gout (most never get it): its own slot, said as it was
    ("尿酸高|高尿酸|尿酸偏高|high uric acid|hyperuricemia", "hyperuricemia", "尿酸高",
     "has high uric acid"),
    ("心脏病|心脏不好|heart disease|heart condition", "heart_disease", "有心脏病",
     "has heart disease"),
    ("心律不齐|arrhythmia|afib", "arrhythmia", "心律不齐", "has an arrhythmia"),
    ("胃病|胃不好|胃炎|胃溃疡|acid reflux|gerd|gastritis|sensitive stomach|weak stomach", "stomach",
     "胃不好", "has stomach problems"),
    ("高血脂|血脂高|血脂偏高|胆固醇高|胆固醇偏高|high cholesterol|cholesterol is high|"
     "cholesterol's high", "hyperlipidemia", "有高血脂",
     "has high cholesterol"),
    ("贫血|anemic|anemia|anaemia", "anemia", "贫血", "is anemic"),
    ("偏头痛|migraines|migraine", "migraine", "有偏头痛", "gets migraines"),
    ("乳糜泻|麸质不耐受|celiac|coeliac", "celiac", "有乳糜泻", "has celiac disease"),
    ("抑郁症|抑郁|depression|depressed", "depression", "有抑郁症", "has depression"),
    ("焦虑症|anxiety disorder|anxiety", "anxiety", "有焦虑症", "has anxiety"),
    ("甲亢|hyperthyroidism", "hyperthyroidism", "有甲亢", "has hyperthyroidism"),
    ("甲减|桥本|hypothyroidism|hashimoto's|hashimotos", "hypothyroidism", "有甲减",
     "has hypothyroidism"),
    ("颈椎病|颈椎不好|腰椎间盘突出|腰椎不好|腰间盘突出|herniated disc|slipped disc", "spine",
     "颈腰椎不好", "has spine problems"),
    ("关节炎|arthritis", "arthritis", "有关节炎", "has arthritis"),
    ("鼻炎|过敏性鼻炎|hay fever", "rhinitis", "有鼻炎", "has hay fever"),
    ("湿疹|荨麻疹|eczema|hives|psoriasis|银屑病", "skin", "有皮肤病", "has a skin condition"),
    ("脂肪肝|fatty liver", "fatty_liver", "有脂肪肝", "has fatty liver"),
    ("乙肝|hepatitis", "hepatitis", "有肝炎", "has hepatitis"),
    ("癫痫|epilepsy|epileptic", "epilepsy", "有癫痫", "has epilepsy"),
    ("失眠症|insomnia", "insomnia", "有失眠症", "has insomnia"),
    ("多囊|pcos", "pcos", "有多囊卵巢", "has PCOS"),
    ("肠易激|ibs|crohn's|crohns|结肠炎|colitis", "bowel", "肠道不好", "has a bowel condition"),
    ("帕金森|parkinson's|parkinsons", "parkinsons", "有帕金森", "has Parkinson's"),
    ("阿尔茨海默|老年痴呆|alzheimer's|alzheimers|dementia", "dementia", "有阿尔茨海默症",
     "has dementia"),
    ("癌症|癌|cancer", "cancer", "患有癌症", "has cancer"),
    ("肾结石|kidney stones", "kidney_stones", "有肾结石", "has kidney stones"),
    ("胆结石|胆囊结石|gallstones", "gallstones", "有胆结石", "has gallstones"),
    ("多动症|adhd", "adhd", "有多动症", "has ADHD"),
    ("自闭症|autism|autistic", "autism", "有自闭症", "is autistic"),
    ("强迫症|ocd", "ocd", "有强迫症", "has OCD"),
    ("双相|bipolar", "bipolar", "有双相情感障碍", "has bipolar disorder"),
    ("红斑狼疮|lupus", "lupus", "有红斑狼疮", "has lupus"),
    ("痔疮|hemorrhoids", "hemorrhoids", "有痔疮", "has hemorrhoids"),
    ("睡眠呼吸暂停|sleep apnea", "sleep_apnea", "有睡眠呼吸暂停", "has sleep apnea"),
    ("乳腺增生|甲状腺结节|肺结节|结节", "nodule", "有结节", "has a nodule"),
    ("怀孕|怀二胎|怀三胎|怀宝宝|有身孕|怀了双胞胎|怀了宝宝|怀了孩子|怀了二胎|pregnant|"
     "expecting a baby|expecting twins|expecting our first|expecting our second", "pregnancy",
     "怀孕了",
     "is pregnant"),
)  # fmt: skip

# Surface form → (topic key, zh content, en content); pregnancy is its own area segment.
CONDITIONS: dict[str, tuple[str, str, str]] = {
    form: (key if key == "pregnancy" else f"condition.{key}", zh, en)
    for forms, key, zh, en in _CONDITIONS
    for form in forms.split("|")
}
CONDITION_RE = re.compile(alternation(CONDITIONS), re.IGNORECASE)

# Medicines: named drugs, and words that make a phrase a medicine (降压药, 胰岛素, …片).
DRUG_RE_ZH = re.compile(
    r"[\u4e00-\u9fffA-Za-z]{0,8}?(?:药|胰岛素|片|胶囊|针|滴剂|喷雾|贴|(?<![鱼肉虾贡牛汤])丸)|(?!全素|吃素|茹素|蛋奶素|纯素|半素|吃全素)[\u4e00-\u9fff]{1,6}(?<![全吃纯半茹奶])素|二甲双胍|优甲乐|"
    r"阿司匹林|"
    r"布洛芬|他汀|褪黑素|头孢|青霉素|激素|避孕药|抗生素|降压药|降糖药|叶酸|钙片|维生素|鱼油|益生菌|"
    r"[\u4e00-\u9fff]{1,5}(?:脲|他汀|沙坦|地平|洛尔|拉唑|西汀|普兰|霉素|西林|替尼|列汀|列净|格列)|"
    r"阿卡波糖|优思明|达英|舍曲林|氟西汀|帕罗西汀|来士普|左甲状腺素|甲巯咪唑|泼尼松|奥司他韦"
)
DRUG_RE_EN = re.compile(
    r"\b(?:metformin|insulin|aspirin|ibuprofen|statins?|lisinopril|levothyroxine|synthroid|"
    r"antidepressants?|blood thinners?|warfarin|eliquis|birth control|the pill|inhalers?|"
    r"antibiotics|melatonin|prozac|zoloft|sertraline|lexapro|adderall|ritalin|methotrexate|"
    r"prednisone|beta[- ]blockers?|omeprazole|epipen|thyroid (?:meds|medication|pills)|"
    r"blood pressure (?:meds|medication|pills)|vitamins?(?: [a-z]\d{0,2})?|supplements?|fish oil|"
    r"probiotics?|iron(?: pills| supplements)?|b12|magnesium|zinc|folic acid|biotin|collagen|"
    r"[a-z]+(?:pril|olol|statin|azole|mab|sartan|"
    r"pine|oxetine|afil|tidine|mycin|cillin|gliptin|gliflozin|glutide|zepam|zolam|triptan|"
    r"pride|dronate|zide|semide|glitazone|lukast|parin|xaban|tinib|cycline|floxacin)|januvia|jardiance|ozempic|wegovy|mounjaro|trulicity|xanax|wellbutrin|"
    r"bupropion|gabapentin|lamotrigine|humira|advil|tylenol|claritin|zyrtec|allegra|singulair|"
    r"albuterol|ventolin|flonase|accutane|spironolactone|valium|lithium|abilify|seroquel|"
    r"codeine|morphine|tramadol|oxycodone|hydrocodone|naproxen|aleve|motrin|sulfa(?: drugs)?|"
    r"sulfonamides?|cephalosporins?|keflex|bactrim|cipro|doxycycline|contrast dye|iodine)\b|"
    r"\b(?:meds|medication|medicine|pills)\b",
    re.IGNORECASE,
)
_GENERIC_DRUG = frozenset("meds medication medicine pills".split())


def is_drug(text: str) -> bool:
    """Does ``text`` name a medicine, in Chinese or by its Latin name (Metformin 控制血糖)?"""
    return bool(DRUG_RE_ZH.search(text) or DRUG_RE_EN.search(text))


def named_drug(text: str) -> str | None:
    """The first medicine ``text`` names by its own name (Amlodipine, 二甲双胍), not a word
    for medicine in general (药, "meds")."""
    for m in DRUG_RE_EN.finditer(text):
        if m.group(0).lower() not in _GENERIC_DRUG:
            return m.group(0)
    zh = DRUG_RE_ZH.search(text)
    return zh.group(0) if zh and zh.group(0)[-1] not in "药片针贴" else None


def drug_named_before(text: str, seen: dict[str, str], key: str) -> str | None:
    """The medicine a clause before ``text`` named (kept in ``seen[key]``), remembering the one
    ``text`` names for the clauses after it (医生说 Amlodipine 令我脚肿，已经换成 Losartan 了)."""
    before = seen.get(key)
    if named := named_drug(text):
        seen[key] = named
    return before


HEALTH_RE = re.compile(
    alternation(CONDITIONS) + r"|过敏|病|血压|血糖|胰岛素|药|怀孕|孕|不耐受|手术|医院|医生|"
    r"\b(?:allerg\w*|intoleran\w*|medication|surgery|hospital|disease)\b",
    re.IGNORECASE,
)
