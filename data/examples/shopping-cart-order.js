// Article 001 #1, #5: an order embeds its items and address as they were when it was placed.
{
  _id: ObjectId("5f9b1c2e8d1a4b3c2d1e0a01"),
  user: { _id: ObjectId("5f9b1c2e8d1a4b3c2d1e0b01"), name: "Kate Monster" },
  date: ISODate("2026-11-21T09:30:00Z"),
  shippingAddress: { street: "123 Sesame St", city: "Anytown", cc: "USA" },
  items: [
    { _id: ObjectId("5f9b1c2e8d1a4b3c2d1e0c01"), name: "left-handed smoke shifter", price: NumberDecimal("19.99"), qty: 1 },
    { _id: ObjectId("5f9b1c2e8d1a4b3c2d1e0c02"), name: "#4 grommet", price: NumberDecimal("3.99"), qty: 12 },
    { _id: ObjectId("5f9b1c2e8d1a4b3c2d1e0c03"), name: "pear", price: NumberDecimal("0.49"), qty: 6 }
  ],
  total: NumberDecimal("70.81")
}
