"""The Lua scripts of :mod:`jiyi.sessions.redis`: each runs atomically inside Redis, so an
append, an end, an expiry hand-over or a claim is all-or-nothing even with many workers."""

MAX_LEASE_MS = 3_600_000  # the longest lease a worker may claim a session for

# Shared Lua: key names and the hand-over of a live session to the pending queue.
_COMMON = """
local P = ARGV[1]
local function skey(k, part) return P .. 's:' .. k .. ':' .. part end
local function fkey(id, part) return P .. 'f:' .. id .. ':' .. part end
local function ukey(tenant, user, part)
  return P .. 'u:' .. cjson.encode({tenant, user}) .. ':' .. part
end
local function hand_over(k, tenant, sid, now, reason)
  local h = skey(k, 'h')
  local user = redis.call('HGET', h, 'user')
  local agent = redis.call('HGET', h, 'agent')
  local n = redis.call('LLEN', skey(k, 'm'))
  redis.call('ZREM', P .. 'deadlines', k)
  redis.call('SREM', ukey(tenant, user, 's'), k)
  if n > 0 then
    -- unique even if Redis is wiped and the counter restarts: ids name queue jobs
    local t = redis.call('TIME')
    local id = t[1] .. t[2] .. '-' .. redis.call('INCR', P .. 'flushseq')
    redis.call('RENAME', skey(k, 'm'), fkey(id, 'm'))
    redis.call('PERSIST', fkey(id, 'm'))
    redis.call('HSET', fkey(id, 'h'), 'tenant', tenant, 'sid', sid, 'user', user,
               'agent', agent, 'reason', reason, 'attempts', 0)
    redis.call('ZADD', P .. 'due', now, id)
    redis.call('SADD', ukey(tenant, user, 'f'), id)
  end
  redis.call('DEL', h, skey(k, 'm'))
end
-- the live session k, or false after handing an expired one over
local function current(k, tenant, sid, now)
  local exp = redis.call('HGET', skey(k, 'h'), 'expires')
  if not exp then return false end
  if tonumber(exp) <= now then
    hand_over(k, tenant, sid, now, 'expired')
    return false
  end
  return true
end
local function view(k, window)
  local h = redis.call('HMGET', skey(k, 'h'), 'user', 'agent', 'started', 'last', 'expires')
  local total = redis.call('LLEN', skey(k, 'm'))
  local msgs = redis.call('LRANGE', skey(k, 'm'), -window, -1)
  return {h[1], h[2], h[3], h[4], h[5], total, msgs}
end
"""

# ARGV: prefix, k, tenant, sid, now, user, agent, ttl, max, window, grace, message
_APPEND = (
    _COMMON
    + """
local k, tenant, sid, now = ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5])
local user, agent = ARGV[6], ARGV[7]
local ttl, maxn, window, grace = tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10]),
  tonumber(ARGV[11])
local h, m = skey(k, 'h'), skey(k, 'm')
if current(k, tenant, sid, now) then
  local owner = redis.call('HMGET', h, 'user', 'agent')
  if owner[1] ~= user or owner[2] ~= agent then return {'conflict'} end
  if redis.call('LLEN', m) >= maxn then return {'full'} end
else
  redis.call('DEL', m)
  redis.call('HSET', h, 'user', user, 'agent', agent, 'started', now)
  redis.call('SADD', ukey(tenant, user, 's'), k)
end
redis.call('RPUSH', m, ARGV[12])
redis.call('HSET', h, 'last', now, 'expires', now + ttl)
redis.call('ZADD', P .. 'deadlines', now + ttl, k)
redis.call('PEXPIRE', h, ttl + grace)
redis.call('PEXPIRE', m, ttl + grace)
return {'ok', view(k, window)}
"""
)

# ARGV: prefix, k, tenant, sid, now, window, end(0|1)
_GET_OR_END = (
    _COMMON
    + """
local k, tenant, sid, now, window = ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5]),
  tonumber(ARGV[6])
if not current(k, tenant, sid, now) then return false end
local v = view(k, window)
if ARGV[7] == '1' then hand_over(k, tenant, sid, now, 'ended') end
return v
"""
)

# ARGV: prefix, now, limit
_EXPIRE = (
    _COMMON
    + """
local now, limit = tonumber(ARGV[2]), tonumber(ARGV[3])
local stale = redis.call('ZRANGEBYSCORE', P .. 'deadlines', '-inf', now, 'LIMIT', 0, limit)
for _, k in ipairs(stale) do
  local key = cjson.decode(k)
  if redis.call('EXISTS', skey(k, 'h')) == 1 then
    hand_over(k, key[1], key[2], now, 'expired')
  else
    redis.call('ZREM', P .. 'deadlines', k)  -- evicted by its leak guard; nothing to hand over
  end
end
return #stale
"""
)

# ARGV: prefix, now, limit, lease
_CLAIM = (
    _COMMON
    + """
local now, limit, lease = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local out = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', P .. 'due', '-inf', now, 'LIMIT', 0, limit)) do
  local attempts = redis.call('HINCRBY', fkey(id, 'h'), 'attempts', 1)
  local wait = math.min(lease * 2 ^ (attempts - 1), MAX_LEASE_MS)
  redis.call('ZADD', P .. 'due', now + wait, id)
  local h = redis.call('HMGET', fkey(id, 'h'), 'tenant', 'sid', 'user', 'agent', 'reason')
  out[#out + 1] = {id, h[1], h[2], h[3], h[4], h[5], attempts,
                   redis.call('LRANGE', fkey(id, 'm'), 0, -1)}
end
return out
""".replace("MAX_LEASE_MS", str(MAX_LEASE_MS))
)

# ARGV: prefix, flush id
_ACK = (
    _COMMON
    + """
local id = ARGV[2]
local h = redis.call('HMGET', fkey(id, 'h'), 'tenant', 'user')
if h[1] then redis.call('SREM', ukey(h[1], h[2], 'f'), id) end
redis.call('DEL', fkey(id, 'h'), fkey(id, 'm'))
redis.call('ZREM', P .. 'due', id)
return 1
"""
)

# ARGV: prefix, tenant, user
_DELETE_USER = (
    _COMMON
    + """
local tenant, user = ARGV[2], ARGV[3]
local removed = 0
for _, k in ipairs(redis.call('SMEMBERS', ukey(tenant, user, 's'))) do
  removed = removed + redis.call('LLEN', skey(k, 'm'))
  redis.call('DEL', skey(k, 'm'), skey(k, 'h'))
  redis.call('ZREM', P .. 'deadlines', k)
end
for _, id in ipairs(redis.call('SMEMBERS', ukey(tenant, user, 'f'))) do
  removed = removed + redis.call('LLEN', fkey(id, 'm'))
  redis.call('DEL', fkey(id, 'm'), fkey(id, 'h'))
  redis.call('ZREM', P .. 'due', id)
end
redis.call('DEL', ukey(tenant, user, 's'), ukey(tenant, user, 'f'))
return removed
"""
)
