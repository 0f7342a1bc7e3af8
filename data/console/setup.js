// Indexes of the console's sample collections, created after the documents are loaded.
// Social graph (article 000): who follows a user, answered by a multikey index.
db.users.createIndex({ followers: 1 })
// Orders (article 001): a customer's orders, newest first.
db.orders.createIndex({ "customer._id": 1, date: -1 })
// Per-channel prices (article 003): an array of { channel, price } with one multikey index.
db.movies.createIndex({ "prices.channel": 1, "prices.price": 1 })
