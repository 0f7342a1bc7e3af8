// Article 003: channel prices as an array of {channel, price}, indexed by one multikey index.
{
  scheduleId: "0001",
  movie: "你的名字",
  provider: [
    { channel: "gewala", price: 30 },
    { channel: "maoyan", price: 50 },
    { channel: "taopiao", price: 20 }
  ]
}
