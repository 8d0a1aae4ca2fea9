module.exports = require('./_rest.js')["init"];
