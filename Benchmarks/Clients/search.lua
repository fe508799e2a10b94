-- A booking form's type-ahead: prefixes of names, addresses and phone numbers, at random.
local prefixes = {"a", "al", "ali", "ma", "mar", "jo", "smi", "sm", "le", "ow", "pat", "ch", "07", "0770", "44", "c1", "b", "ro", "ke", "di"}
math.randomseed(os.time())
request = function()
  return wrk.format("GET", "/api/clients/search?limit=10&q=" .. prefixes[math.random(#prefixes)])
end
