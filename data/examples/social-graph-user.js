// Article 000: the producer keeps its followers. Every follow grows this document.
{
  _id: ObjectId("5f9b1c2e8d1a4b3c2d1e0f01"),
  username: "joker",
  email: "joker@mailinator.com",
  followers: [
    ObjectId("5f9b1c2e8d1a4b3c2d1e0f02"),
    ObjectId("5f9b1c2e8d1a4b3c2d1e0f03"),
    ObjectId("5f9b1c2e8d1a4b3c2d1e0f04")
  ]
}
