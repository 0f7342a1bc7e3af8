// Article 001 #9: items in an array can be queried by what they are, not by their name.
{
  _id: "fred",
  items: [
    { id: "slingshot", type: "weapon", damage: 23, ranged: true },
    { id: "jar", type: "container", contains: "fairy" },
    { id: "sword", type: "weapon", damage: 50, ranged: false }
  ],
  abilities: { strength: 14, agility: 18, wisdom: 9 }
}
