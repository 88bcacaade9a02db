"""What an agent's model reads to choose a jiyi tool, in Chinese and English: shared by
the MCP server and the LangChain tools, so both describe jiyi the same way."""

INSTRUCTIONS = (
    "jiyi 记忆：跨会话的长期记忆。用户说出关于自己的事实、偏好、计划时调用 remember；"
    "回答前需要了解用户时调用 context（整段可放进提示词）或 recall（逐条带分数）；"
    "用户要求忘掉某件事时先 recall 找到 id，再 forget。\n"
    "jiyi: long-term memory across sessions. Call remember when the user states facts, "
    "preferences or plans about themselves; before answering, call context (a block for the "
    "prompt) or recall (scored memories); to forget something, recall it for its id, then "
    "forget."
)
REMEMBER = (
    "记住用户说的话：抽取事实、偏好、目标和计划，自动脱敏手机号等个人信息，与已有记忆对账"
    "（更正会取代旧值），原话也作为情节保存。"
    " Remember what the user said: extracts facts, preferences, goals and plans, redacts "
    "personal data, reconciles with what is stored (a correction supersedes the old value) "
    "and keeps the original words as an episode."
)
RECALL = (
    "按意思和关键词检索用户的记忆（混合检索，中英文皆可），按相关性排序并给出分数。"
    " Search the user's memories by meaning and keywords (hybrid search, Chinese or "
    "English), best first, with scores."
)
CONTEXT = (
    "取出与当前话题相关的记忆，组成一段可直接放进系统提示词的文字（在 token 预算内）。"
    " The memories relevant to the current turn as one block of text for the system prompt, "
    "within a token budget."
)
FORGET = (
    "永久删除一条记忆（以及它的旧版本和原话）。先用 recall 找到它的 id。"
    " Permanently delete one memory (with its older versions and the words it came from). "
    "Find its id with recall first."
)
MEMORIES = "该用户的全部记忆（JSON，按时间先后）。 All of a user's memories as JSON, oldest first."
